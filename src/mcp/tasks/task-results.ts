import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import { TASK_META, taskProblem } from './task-wire.js';

type Message = Record<string, unknown>;

/**
 * The transport, but a `tools/call` the server answers with a task (`resultType: "task"`, the
 * Tasks extension) reaches the client as a complete result that carries the task under
 * `_meta["ambi-web/task"]`: the client package (2.4.0) refuses a result type it does not know, and
 * so would lose the task. Only answers to this client's own `tools/call` requests are turned, and
 * that key is taken out of every other answer, so a server cannot make up a task by writing it.
 * A task result to any other request stays as it is (the client refuses it, as the spec says).
 */
export function withTaskResults<T extends Transport>(transport: T): T {
  const toolCalls = new Set<unknown>();
  const send = (message: JSONRPCMessage, options?: unknown) => {
    const { method, id } = message as Message;
    if (method === 'tools/call' && id !== undefined) toolCalls.add(id);
    return transport.send(message, options as never);
  };
  return new Proxy(transport, {
    get(target, property) {
      if (property === 'send') return send;
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
    set(target, property, value) {
      if (property !== 'onmessage' || typeof value !== 'function') return Reflect.set(target, property, value, target);
      target.onmessage = (message: JSONRPCMessage, extra?: unknown) => value(turned(message, toolCalls), extra);
      return true;
    },
  });
}

function turned(message: JSONRPCMessage, toolCalls: Set<unknown>): JSONRPCMessage {
  const { id, result } = message as Message;
  if (id === undefined || !('result' in message || 'error' in message)) return message;
  const ours = toolCalls.delete(id);
  if (typeof result !== 'object' || result === null) return message;
  const { _meta, ...rest } = result as Message;
  const meta = typeof _meta === 'object' && _meta !== null ? { ...(_meta as Message) } : undefined;
  const forged = meta !== undefined && TASK_META in meta;
  if (forged) delete meta[TASK_META];
  if (!ours || rest.resultType !== 'task' || taskProblem(rest) !== undefined)
    return forged ? ({ ...message, result: { ...rest, ...(meta ? { _meta: meta } : {}) } } as JSONRPCMessage) : message;
  const { resultType: _, ...task } = rest;
  return { ...message, result: { resultType: 'complete', content: [], _meta: { ...meta, [TASK_META]: task } } } as JSONRPCMessage;
}
