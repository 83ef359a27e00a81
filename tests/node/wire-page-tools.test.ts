// A page tool called from the runner host: the call crosses with the attempt's context fields and
// its abort, over Comlink both ways on one channel (as the runner worker and the page have them).
// Both ends run here, on one thread, over a real MessageChannel.
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { defineTool, scriptedEngine, type ScriptedReply } from '../../src/worker/index.js';
import type { RunEvent } from '../../src/runner/events.js';
import { serveCall, servedTool, serveTarget } from '../../src/call/serve.js';
import type { AbortSource } from '../../src/util/abort-source.js';
import { toDescriptor } from '../../src/worker/wire/descriptor.js';
import * as Comlink from 'comlink';
import { PageHost } from '../../src/worker/page/page-host.js';
import { registerTransferHandlers } from '../../src/worker/wire/transfer-handlers.js';
import { exposeRunnerHost } from '../../src/worker/runner/runner-host.js';
import { ANSWERED, CALL, FAILED, type AnswerMessage, type CallMessage, type ToolInvoker } from '../../src/worker/wire/protocol.js';
import type { Tool } from '../../src/tools/types.js';
import { CheckedJson } from '../../src/call/checked-json.js';
import { withParts } from '../../src/parts/with-parts.js';

const opened: MessagePort[] = [];
afterEach(() => {
  for (const port of opened.splice(0)) port.close();
});

/** A runner host and a page port serving `tool`; resolves with a run's events once they end. */
async function session(tool: Tool, replies: ScriptedReply[], hostile?: (page: MessagePort) => void) {
  const { port1, port2 } = new MessageChannel();
  opened.push(port1, port2);
  registerTransferHandlers();
  const host = exposeRunnerHost(port1 as unknown as Comlink.Endpoint);
  const served = new Map<string, ToolInvoker>([
    [
      tool.name,
      {
        call: (args, ctx, abort) => serveCall(servedTool(tool), args, ctx, abort),
        needsApproval: async () => false,
        ...(tool.target ? { target: (args: unknown, abort: AbortSource) => serveTarget(servedTool(tool), args, abort) } : {}),
      },
    ],
  ]);
  const events: RunEvent[] = [];
  let ended = () => {};
  const done = new Promise<void>((resolve) => {
    ended = resolve;
  });
  const page = new PageHost(
    served,
    (_runId, batch) => {
      if (batch === null) ended();
      else events.push(...batch);
    },
    true,
  );
  page.serve(port2 as unknown as Comlink.Endpoint);
  hostile?.(port2);
  const api = Comlink.wrap<typeof host>(port2 as unknown as Comlink.Endpoint);
  await api.configure({ engine: scriptedEngine(replies), concurrency: 1 });
  await api.registerTools([toDescriptor(tool)]);
  await api.startRun('run-1', 'go', {});
  await done;
  return events;
}

const finished = (events: RunEvent[]) => events.flatMap((event) => (event.type === 'tool_finished' ? [event.result] : []));

describe('a page tool called across the session', () => {
  it('whose output is JSON already (a tab tool served on from an extension page) crosses as that JSON, its parts beside it', async () => {
    const png = new Blob([new Uint8Array([137, 80, 78, 71])], { type: 'image/png' });
    const tool = defineTool({
      name: 'tabbed',
      description: 'Answers as a tab tool does',
      parameters: { type: 'object', properties: { parts: { type: 'boolean' } } },
      idempotent: true,
      call: ({ parts }: { parts?: boolean }) => {
        const answer = new CheckedJson({ stamped: 'hello', n: [1, 2] });
        return parts ? withParts(answer, [{ type: 'image', image: png }]) : answer;
      },
    });
    const replies: ScriptedReply[] = [
      {
        toolCalls: [
          { name: 'tabbed', arguments: {} },
          { name: 'tabbed', arguments: { parts: true } },
        ],
      },
      'done',
    ];
    const results = finished(await session(tool, replies));
    expect(results.map((result) => result.ok && result.output)).toEqual([
      { stamped: 'hello', n: [1, 2] },
      { stamped: 'hello', n: [1, 2] },
    ]);
    expect(results[1]).toMatchObject({ parts: [{ type: 'image', mediaType: 'image/png' }] });
  });

  it('gets the call id, the attempt and the idempotency key, and nothing of the run', async () => {
    const seen: Array<Record<string, unknown>> = [];
    const tool = defineTool({
      name: 'probe',
      description: 'Reports its context',
      parameters: { type: 'object', properties: {} },
      idempotent: true,
      call: (_args, ctx) => {
        seen.push({ ...ctx, signal: undefined });
        return 'ok';
      },
    });
    const events = await session(tool, [{ toolCalls: [{ id: 'c1', name: 'probe', arguments: {} }] }, 'done']);
    const call = events.find((event) => event.type === 'tool_call');
    expect(call?.type === 'tool_call' && call.call.idempotencyKey).toBeTruthy();
    const key = call?.type === 'tool_call' ? call.call.idempotencyKey : undefined;
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ callId: call?.type === 'tool_call' ? call.call.id : '', attempt: 1, idempotencyKey: key });
    expect(Object.keys(seen[0]!).sort()).toEqual(['attempt', 'callId', 'idempotencyKey', 'signal']);
    expect(finished(events)).toMatchObject([{ ok: true, output: 'ok', attempts: 1 }]);
  });

  it('a timed-out attempt aborts the page tool, and the retry carries the next attempt and the same key', async () => {
    const attempts: Array<{ attempt: number; key: string; aborted: Promise<unknown> }> = [];
    const tool = defineTool({
      name: 'slow',
      description: 'Hangs on its first attempt',
      parameters: { type: 'object', properties: {} },
      idempotent: true,
      // Long enough that the second attempt, answered at once, never times out on a loaded machine.
      timeoutMs: 1000,
      retryDelayMs: 0,
      maxRetries: 1,
      call: (_args, ctx) => {
        const { signal } = ctx;
        attempts.push({
          attempt: ctx.attempt,
          key: ctx.idempotencyKey,
          aborted: new Promise((resolve) => signal.addEventListener('abort', () => resolve(signal.reason), { once: true })),
        });
        return ctx.attempt === 1 ? new Promise<string>(() => {}) : 'second';
      },
    });
    const events = await session(tool, [{ toolCalls: [{ name: 'slow', arguments: {} }] }, 'done']);
    expect(attempts.map((a) => a.attempt)).toEqual([1, 2]);
    expect(attempts[1]!.key).toBe(attempts[0]!.key);
    expect(await attempts[0]!.aborted).toBeDefined();
    expect(finished(events)).toMatchObject([{ ok: true, output: 'second', attempts: 2 }]);
    expect(events.filter((event) => event.type === 'tool_started').map((event) => event.type === 'tool_started' && event.attempt)).toEqual([1, 2]);
  });

  it("a page tool's result crosses once: the page's tool_finished holds the very value the tool returned, not a copy sent back", async () => {
    const rows = Array.from({ length: 5000 }, (_, i) => ({ i, text: `row ${i} `.repeat(20) }));
    const tool = defineTool({
      name: 'scrape',
      description: 'Returns a large page scrape',
      parameters: { type: 'object', properties: {} },
      idempotent: true,
      call: () => ({ rows }),
    });
    const events = await session(tool, [{ toolCalls: [{ id: 'b1', name: 'scrape', arguments: {} }] }, 'done']);
    const [result] = finished(events);
    expect(result).toMatchObject({ ok: true, attempts: 1 });
    expect(result?.ok && (result.output as { rows: unknown }).rows).toBe(rows);
  });

  it('a tool that names its target: asked on the page when the call is proposed, handed back to the call as ctx.target', async () => {
    let page = 'A';
    const seen: unknown[] = [];
    const tool: Tool = {
      ...defineTool({
        name: 'stamp',
        description: 'Stamps the page it was proposed for',
        parameters: { type: 'object', properties: { mark: { type: 'string' } } },
        idempotent: false,
        call: (_args, ctx) => {
          seen.push(ctx.target);
          return page;
        },
      }),
      // The page moves on once its target was named: the call must still carry A.
      target: (args: { mark?: string }) => {
        const target = { page, mark: args.mark ?? null };
        page = 'B';
        return target;
      },
    };
    const events = await session(tool, [{ toolCalls: [{ id: 's1', name: 'stamp', arguments: { mark: 'x' } }] }, 'done']);
    expect(toDescriptor(tool)).toMatchObject({ name: 'stamp', targeted: true });
    expect(seen).toEqual([{ page: 'A', mark: 'x' }]);
    expect(finished(events)).toMatchObject([{ ok: true, output: 'B' }]);
  });

  describe('a page that answers wrongly (the call crosses as one CallMessage, its answer as one AnswerMessage)', () => {
    const echo = defineTool({
      name: 'echo',
      description: 'Says what it was given',
      parameters: { type: 'object', properties: { say: { type: 'string' } } },
      idempotent: true,
      call: ({ say }: { say: string }) => say,
    });

    it('answering a call twice, a call never made, or with a failure that is not one: only the first answer for a waiting call counts', async () => {
      const keys: number[] = [];
      const events = await session(
        echo,
        [
          { toolCalls: [{ id: 'e1', name: 'echo', arguments: { say: 'real' } }] },
          { toolCalls: [{ id: 'e2', name: 'echo', arguments: { say: 'again' } }] },
          'done',
        ],
        (page) =>
          page.on('message', (data: unknown) => {
            if (!Array.isArray(data) || data[0] !== CALL) return;
            const key = (data as CallMessage)[1];
            keys.push(key);
            // After the page's own answer: a second one, a forged failure, and answers for a key never sent or not a key. (Keys are a counter: only the page itself posts on this channel, so a key needs no guarding from it.)
            page.postMessage([ANSWERED, key, 'forged'] satisfies AnswerMessage);
            page.postMessage([FAILED, key, 'not a wire error'] as unknown as AnswerMessage);
            page.postMessage([ANSWERED, key + 1000, 'never asked'] satisfies AnswerMessage);
            page.postMessage([ANSWERED, 'key', 'not a key'] as unknown as AnswerMessage);
            page.postMessage([7, key] as unknown as AnswerMessage);
          }),
      );
      expect(keys).toHaveLength(2);
      expect(finished(events)).toMatchObject([
        { id: 'e1', ok: true, output: 'real' },
        { id: 'e2', ok: true, output: 'again' },
      ]);
    });

    it("a huge answer (1 MB) is the call's output, whole, as it crossed once", async () => {
      const rows = Array.from({ length: 10_000 }, (_, i) => ({ id: i, body: 'x'.repeat(90) }));
      const big = defineTool({ name: 'big', description: 'Many rows', parameters: { type: 'object', properties: {} }, idempotent: true, call: () => rows });
      let answers = 0;
      const events = await session(big, [{ toolCalls: [{ id: 'b1', name: 'big', arguments: {} }] }, 'done'], (page) => {
        const post = page.postMessage.bind(page);
        page.postMessage = (data: unknown, transfer?: readonly Transferable[]) => {
          if (Array.isArray(data) && data[0] === ANSWERED) answers++;
          post(data, transfer as never);
        };
      });
      expect(answers).toBe(1);
      const [result] = finished(events);
      expect(result).toMatchObject({ id: 'b1', ok: true });
      expect((result as { output: unknown[] }).output).toHaveLength(10_000);
      expect((result as { output: unknown[] }).output[9_999]).toEqual(rows[9_999]);
    });
  });

  it("an output that reads as plain JSON but will not clone (a Proxy, as a framework's reactive state) crosses as its JSON copy", async () => {
    const state = new Proxy({ count: 2, items: ['a'] }, {});
    const tool = defineTool({ name: 'state', description: 'App state', parameters: { type: 'object', properties: {} }, idempotent: true, call: () => state });
    const events = await session(tool, [{ toolCalls: [{ id: 'p1', name: 'state', arguments: {} }] }, 'done']);
    expect(finished(events)).toMatchObject([{ id: 'p1', ok: true, output: { count: 2, items: ['a'] } }]);
  });
});
