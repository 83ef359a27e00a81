// The runner worker's event batches (WorkerPort): a batch whose time is up while a request is out
// goes right after the next call, and at most one more batch interval later if none goes; with
// nothing out, it goes when its time is up. A real MessageChannel; the batch timer is faked.
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { WorkerPort } from '../../src/worker/runner/worker-port.js';
import { CALL, DONE, EVENTS } from '../../src/worker/wire/protocol.js';
import { LazyAbortController } from '../../src/util/abort-source.js';

let ports: MessagePort[] = [];
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
});
afterEach(() => {
  vi.useRealTimers();
  for (const port of ports.splice(0)) port.close();
});

/** A WorkerPort on one end; the other end records the kinds of what arrives, in order. */
function link() {
  const { port1, port2 } = new MessageChannel();
  ports = [port1, port2];
  const port = new WorkerPort(port1 as unknown as Worker);
  const kinds: number[] = [];
  const calls: number[] = [];
  port2.on('message', (message: unknown[]) => {
    kinds.push(message[0] as number);
    if (message[0] === CALL) calls.push(message[1] as number);
  });
  const invoker = port.invoker('ping');
  const call = () => invoker.call({}, { callId: 'c', attempt: 1, idempotencyKey: 'k' }, new LazyAbortController());
  const answer = (id: number) => port2.postMessage([DONE, id, 'pong']);
  // Messages cross asynchronously: a real turn of the event loop (not a faked timer) lets them in.
  const settle = () => new Promise((resolve) => setImmediate(resolve));
  return { port, kinds, calls, call, answer, settle };
}

const started = { type: 'tool_started' as const, callId: 'c', name: 'ping', attempt: 1 };

describe('event batches', () => {
  it('with nothing out, a batch goes when its time is up', async () => {
    const { port, kinds, settle } = link();
    port.event('r1', started);
    vi.advanceTimersByTime(1);
    await settle();
    expect(kinds).toEqual([]);
    vi.advanceTimersByTime(1);
    await settle();
    expect(kinds).toEqual([EVENTS]);
  });

  it('with a call out, a batch whose time is up goes right after the next call', async () => {
    const { port, kinds, calls, call, answer, settle } = link();
    const first = call();
    port.event('r1', started);
    vi.advanceTimersByTime(2); // its time is up, but a call is out: it waits for the next one
    await settle();
    expect(kinds).toEqual([CALL]);
    answer(calls[0]!);
    await expect(first).resolves.toBe('pong');
    void call();
    await settle();
    expect(kinds).toEqual([CALL, CALL, EVENTS]);
    // No timer is left to wake this thread: the call took the batch, and its timer went with it.
    expect(vi.getTimerCount()).toBe(0);
  });

  it('with calls going out all along, batches go with them, and no batch timer ever fires', async () => {
    const { port, kinds, calls, call, answer, settle } = link();
    const fired = vi.fn();
    const setTimer = globalThis.setTimeout;
    vi.spyOn(globalThis, 'setTimeout').mockImplementation(((handler: () => void, ms?: number) =>
      setTimer(() => {
        fired();
        handler();
      }, ms)) as typeof setTimeout);
    let pending = call();
    await settle();
    for (let i = 0; i < 20; i++) {
      port.event('r1', started);
      vi.advanceTimersByTime(0.5); // a call every half interval
      answer(calls.at(-1)!);
      await pending;
      pending = call();
      await settle();
    }
    expect(fired).not.toHaveBeenCalled();
    expect(kinds.filter((kind) => kind === EVENTS).length).toBe(5);
    expect(kinds.filter((kind) => kind === CALL).length).toBe(21);
  });

  it('with a call out and no next call, the batch goes one interval later', async () => {
    const { port, kinds, call, settle } = link();
    void call();
    port.event('r1', started);
    vi.advanceTimersByTime(2);
    await settle();
    expect(kinds).toEqual([CALL]);
    vi.advanceTimersByTime(2);
    await settle();
    expect(kinds).toEqual([CALL, EVENTS]);
  });
});
