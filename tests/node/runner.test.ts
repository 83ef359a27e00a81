import { describe, expect, it, vi } from 'vitest';
import {
  Agent,
  ChatRunner,
  ConcurrencyBudget,
  defineTool,
  isAmbiError,
  MemoryConversationStore,
  scriptedEngine,
  ToolError,
  type Engine,
  type RunEvent,
  type ToolContext,
  type ToolResult,
} from '../../src/index.js';
import type { EngineEvent } from '../../src/extend/index.js';
import { collect, ONE_CALL_EVENT_TYPES } from '../support/run-events.js';
import { untilAborted } from '../support/tools.js';
import { call, finish, gate, StepEngine, text } from '../support/engines.js';

const empty = { type: 'object', properties: {} } as const;

/** A non-idempotent tool named `hang` whose calls end only when their signal aborts; `onCall` sees each call's context. */
function hangingTool(onCall: (ctx: ToolContext) => void) {
  return defineTool({
    name: 'hang',
    description: 'x',
    parameters: empty,
    idempotent: false,
    call: (_a, ctx: ToolContext) => {
      onCall(ctx);
      return new Promise((_, reject) => ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason)));
    },
  });
}

/** A tool that counts how many of its calls run at once, each held until `release` is called. */
function heldTool(name = 'held', idempotent = true) {
  const state = { running: 0, peak: 0, started: 0, waiters: [] as Array<() => void> };
  const tool = defineTool({
    name,
    description: 'held until released',
    parameters: { type: 'object', properties: { n: { type: 'number' } } },
    idempotent,
    call: async ({ n }) => {
      state.running++;
      state.started++;
      state.peak = Math.max(state.peak, state.running);
      await new Promise<void>((resolve) => state.waiters.push(resolve));
      state.running--;
      return n ?? null;
    },
  });
  const releaseAll = async () => {
    // Release whoever waits, repeatedly, until the run stops producing waiters.
    for (let i = 0; i < 100; i++) {
      await new Promise((r) => setTimeout(r, 1));
      state.waiters.splice(0).forEach((w) => w());
    }
  };
  return { tool, state, releaseAll };
}

/** Run on `runner` one reply of `count` calls to a held tool, released as they come; the tool's counts once the run ends. */
async function heldReply(count: number, runner: ChatRunner) {
  const { tool, state, releaseAll } = heldTool();
  const calls = Array.from({ length: count }, (_, i) => call(`c${i}`, 'held', { n: i }));
  const agent = (
    await Agent.make(
      new StepEngine([
        [...calls, finish('tool_calls')],
        [text('done'), finish()],
      ]),
    )
  ).tool(tool);
  const run = runner.run(agent, 'go');
  await releaseAll();
  await run.result;
  return state;
}

describe('ChatRunner', () => {
  it('returns the model text when the reply holds no calls, in one iteration', async () => {
    const agent = await Agent.make(scriptedEngine(['Hello there.']));
    const result = await new ChatRunner().run(agent, 'hi').result;
    expect(result.text).toBe('Hello there.');
    expect(result.iterations).toBe(1);
    expect(result.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
  });

  it('runs a tagged call, feeds its result back, and returns the next answer', async () => {
    const engine = new StepEngine([
      [text('Let me add. [TOOL_CALL]{"name":"add","args":{"a":2,"b":3}}[/TOOL_CALL]'), finish()],
      [text('It is 5.'), finish()],
    ]);
    const agent = (await Agent.make(engine)).tool(
      defineTool({
        name: 'add',
        description: 'add',
        parameters: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
        idempotent: true,
        call: ({ a, b }) => a + b,
      }),
    );
    const result = await new ChatRunner().run(agent, 'what is 2+3?').result;
    expect(result.text).toBe('It is 5.');
    expect(result.toolResults).toMatchObject([{ name: 'add', ok: true, output: 5 }]);
    const second = engine.requests[1]!.messages;
    const assistant = second.find((m) => m.role === 'assistant');
    const tool = second.find((m) => m.role === 'tool');
    expect(assistant).toMatchObject({ toolCalls: [{ name: 'add', arguments: { a: 2, b: 3 } }] });
    expect(tool).toMatchObject({ name: 'add', content: '{"ok":true,"output":5}' });
    expect(tool && 'toolCallId' in tool && tool.toolCallId).toBe(result.toolResults[0]!.id);
  });

  it('peaks at exactly the concurrency limit', async () => {
    const state = await heldReply(8, new ChatRunner(3));
    expect(state.peak).toBe(3);
    expect(state.started).toBe(8);
  });

  it('defaults to a limit of 5 calls at once', async () => {
    const state = await heldReply(9, new ChatRunner());
    expect(state.peak).toBe(5);
  });

  it('caps calls across runners with a shared ConcurrencyBudget', async () => {
    const { tool, state, releaseAll } = heldTool();
    const budget = new ConcurrencyBudget(2);
    const replies = () => [
      [...[0, 1, 2, 3].map((i) => call(`c${i}`, 'held', { n: i })), finish('tool_calls')],
      [text('done'), finish()],
    ];
    const a = (await Agent.make(new StepEngine(replies()))).tool(tool);
    const b = (await Agent.make(new StepEngine(replies()))).tool(tool);
    const runs = [new ChatRunner({ concurrency: 5, budget }).run(a, 'go'), new ChatRunner({ concurrency: 5, budget }).run(b, 'go')];
    await releaseAll();
    await Promise.all(runs.map((r) => r.result));
    expect(state.peak).toBe(2);
    expect(state.started).toBe(8);
  });

  it('returns results to the model in call order whatever order they finish in', async () => {
    // Each call ends when the test says, once all three have started: the last one first.
    const ends = new Map<number, () => void>();
    const slowFirst = defineTool({
      name: 'wait',
      description: 'waits ms',
      parameters: { type: 'object', properties: { ms: { type: 'number' } }, required: ['ms'] },
      idempotent: true,
      call: async ({ ms }) => {
        await new Promise<void>((r) => ends.set(ms, r));
        return ms;
      },
    });
    void vi
      .waitFor(() => expect(ends.size).toBe(3))
      .then(async () => {
        for (const ms of [1, 15, 30]) {
          ends.get(ms)!();
          await new Promise((r) => setTimeout(r, 0));
        }
      });
    const finished: number[] = [];
    const engine = new StepEngine([
      [call('a', 'wait', { ms: 30 }), call('b', 'wait', { ms: 15 }), call('c', 'wait', { ms: 1 }), finish('tool_calls')],
      [text('ok'), finish()],
    ]);
    const agent = (await Agent.make(engine)).tool(slowFirst);
    const run = new ChatRunner().run(agent, 'go');
    for await (const event of run.events) if (event.type === 'tool_finished' && event.result.ok) finished.push(event.result.output as number);
    const result = await run.result;
    expect(finished).toEqual([1, 15, 30]);
    expect(result.toolResults.map((r) => r.id)).toEqual(['a', 'b', 'c']);
    const toolMessages = engine.requests[1]!.messages.filter((m) => m.role === 'tool');
    expect(toolMessages.map((m) => (m.role === 'tool' ? m.toolCallId : ''))).toEqual(['a', 'b', 'c']);
  });

  it("feeds a tool's failure back to the model as a result and goes on", async () => {
    const failing = defineTool({
      name: 'lookup',
      description: 'x',
      parameters: empty,
      idempotent: true,
      call: () => {
        throw new ToolError('No such record');
      },
    });
    const engine = new StepEngine([
      [call('c1', 'lookup'), call('c2', 'missing'), finish('tool_calls')],
      [text('Sorry.'), finish()],
    ]);
    const agent = (await Agent.make(engine)).tool(failing);
    const result = await new ChatRunner().run(agent, 'go').result;
    expect(result.text).toBe('Sorry.');
    const toolMessages = engine.requests[1]!.messages.filter((m) => m.role === 'tool').map((m) => JSON.parse(m.content));
    expect(toolMessages).toEqual([
      { ok: false, error: { code: 'tool_error', message: 'No such record' } },
      { ok: false, error: { code: 'unknown_tool', message: 'Unknown tool "missing". Available tools: lookup' } },
    ]);
  });

  it('feeds a malformed tagged call back as a runtime message, so the model can correct itself', async () => {
    const engine = new StepEngine([
      [text('[TOOL_CALL]{"name": "add", "args": {"a": 1[/TOOL_CALL]'), finish()],
      [text('Fixed.'), finish()],
    ]);
    const agent = await Agent.make(engine);
    const run = new ChatRunner().run(agent, 'go');
    const events = await collect(run);
    const result = await run.result;
    expect(result.text).toBe('Fixed.');
    expect(events.filter((e) => e.type === 'format_error')).toHaveLength(1);
    const note = engine.requests[1]!.messages.at(-1)!;
    expect(note).toMatchObject({ role: 'user', origin: 'runtime' });
    expect(note.content).toContain('could not be read');
    expect(note.content).toContain('{"name": "add", "args": {"a": 1');
  });

  it('cuts a tool result longer than maxResultChars with a visible marker', async () => {
    const big = defineTool({ name: 'page', description: 'x', parameters: empty, idempotent: true, call: () => 'x'.repeat(50_000) });
    const engine = new StepEngine([
      [call('c1', 'page'), finish('tool_calls')],
      [text('ok'), finish()],
    ]);
    const agent = (await Agent.make(engine, { maxResultChars: 1_000 })).tool(big);
    await new ChatRunner().run(agent, 'go').result;
    const content = engine.requests[1]!.messages.find((m) => m.role === 'tool')!.content;
    expect(content.startsWith('{"ok":true,"output":"xxx')).toBe(true);
    expect(content).toContain('[truncated by ambi-web: 1000 of 50023 characters shown');
    expect(content.length).toBeLessThan(1_200);
  });

  it('stops at maxIterations without running the last turn’s calls, and rolls the conversation back', async () => {
    let runs = 0;
    const counter = defineTool({ name: 'again', description: 'x', parameters: empty, idempotent: true, call: () => ++runs });
    const conversations = new MemoryConversationStore();
    await conversations.append('chat', [
      { role: 'user', content: 'earlier' },
      { role: 'assistant', content: 'reply' },
    ]);
    const engine = new StepEngine([1, 2, 3].map((i) => [call(`c${i}`, 'again'), finish('tool_calls')]));
    const agent = (await Agent.make(engine, { conversations })).tool(counter);
    const error = await new ChatRunner().run(agent, 'loop', { maxIterations: 2, conversation: 'chat' }).result.catch((e: unknown) => e);
    expect(isAmbiError(error, 'max_iterations')).toBe(true);
    expect(runs).toBe(1);
    expect(engine.requests).toHaveLength(2);
    expect(await conversations.load('chat')).toEqual([
      { role: 'user', content: 'earlier' },
      { role: 'assistant', content: 'reply' },
    ]);
  });

  it('aborts every running tool signal, records the aborted results, then rejects with code aborted', async () => {
    const signals: AbortSignal[] = [];
    const started = gate();
    const hang = hangingTool((ctx) => {
      signals.push(ctx.signal);
      if (signals.length === 2) started.open();
    });
    const conversations = new MemoryConversationStore();
    const engine = new StepEngine([[call('c1', 'hang'), call('c2', 'hang'), finish('tool_calls')]]);
    const agent = (await Agent.make(engine, { conversations })).tool(hang);
    const run = new ChatRunner().run(agent, 'go', { conversation: 'chat' });
    await started.promise;
    run.abort('stop pressed');
    const error = await run.result.catch((e: unknown) => e);
    expect(isAmbiError(error, 'aborted')).toBe(true);
    expect(signals.map((s) => [s.aborted, s.reason])).toEqual([
      [true, 'stop pressed'],
      [true, 'stop pressed'],
    ]);
    const stored = await conversations.load('chat');
    expect(stored.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'tool']);
    expect(stored.slice(2).map((m) => JSON.parse(String(m.content)).error.code)).toEqual(['aborted', 'aborted']);
  });

  it('ends the calls still waiting for a slot as aborted, never run, when the run aborts', async () => {
    const ran: string[] = [];
    const started = gate();
    const hang = hangingTool((ctx) => {
      ran.push(ctx.callId);
      started.open();
    });
    const engine = new StepEngine([[call('c1', 'hang'), call('c2', 'hang'), call('c3', 'hang'), finish('tool_calls')]]);
    const agent = (await Agent.make(engine)).tool(hang);
    const run = new ChatRunner(1).run(agent, 'go');
    const finished: ToolResult[] = [];
    const reading = (async () => {
      for await (const event of run.events) if (event.type === 'tool_finished') finished.push(event.result);
    })();
    await started.promise;
    run.abort('stop pressed');
    expect(isAmbiError(await run.result.catch((e: unknown) => e), 'aborted')).toBe(true);
    await reading;
    expect(ran).toEqual(['c1']);
    const byId = [...finished].sort((a, b) => a.id.localeCompare(b.id));
    expect(byId.map((r) => [r.id, r.ok, r.ok ? 0 : r.error.code, r.attempts])).toEqual([
      ['c1', false, 'aborted', 1],
      ['c2', false, 'aborted', 0],
      ['c3', false, 'aborted', 0],
    ]);
  });

  it('aborts a run whose outside signal fires during the model reply', async () => {
    const outside = new AbortController();
    const held = gate();
    const engine = new StepEngine([[text('partial'), { type: 'wait', until: held.promise }, text(' never'), finish()]]);
    const agent = await Agent.make(engine);
    const run = new ChatRunner().run(agent, 'go', { signal: outside.signal });
    const events: RunEvent[] = [];
    for await (const event of run.events) {
      events.push(event);
      if (event.type === 'text_delta') {
        outside.abort('navigated away');
        held.open();
      }
    }
    const error = await run.result.catch((e: unknown) => e);
    expect(isAmbiError(error, 'aborted')).toBe(true);
    expect(events.at(-1)).toMatchObject({ type: 'run_failed', error: { code: 'aborted' } });
  });

  it("leaves no listener per run on a caller's signal that outlives many runs", async () => {
    const { signal } = new AbortController();
    const added = vi.spyOn(signal, 'addEventListener');
    const removed = vi.spyOn(signal, 'removeEventListener');
    const agent = await Agent.make(scriptedEngine(Array.from({ length: 20 }, () => 'ok')));
    for (let i = 0; i < 20; i++) await new ChatRunner().run(agent, 'go', { signal }).result;
    const live = added.mock.calls.filter(([, listener]) => !removed.mock.calls.some(([, gone]) => gone === listener));
    expect(live.length).toBeLessThanOrEqual(1);
  });

  it('starts an idempotent call as soon as it closes, but a non-idempotent one only after the whole reply', async () => {
    const order: string[] = [];
    const make = (name: string, idempotent: boolean) =>
      defineTool({
        name,
        description: 'x',
        parameters: empty,
        idempotent,
        call: () => {
          order.push(`run ${name}`);
          return name;
        },
      });
    const rest = gate();
    const engine = new StepEngine([
      [
        text('[TOOL_CALL]{"name":"read"}[/TOOL_CALL][TOOL_CALL]{"name":"write"}[/TOOL_CALL]'),
        { type: 'wait', until: rest.promise },
        text(' and done'),
        finish(),
      ],
      [text('ok'), finish()],
    ]);
    const agent = (await Agent.make(engine)).tool(make('read', true)).tool(make('write', false));
    const run = new ChatRunner().run(agent, 'go');
    await new Promise((r) => setTimeout(r, 20));
    order.push('reply ends');
    rest.open();
    await run.result;
    expect(order).toEqual(['run read', 'reply ends', 'run write']);
  });

  it('aborts a call that started early and is still running after its reply ended', async () => {
    const reasons: unknown[] = [];
    const watch = untilAborted('watch', (signal) => reasons.push(signal.reason), true);
    const engine = new StepEngine([[text('[TOOL_CALL]{"name":"watch"}[/TOOL_CALL] waiting'), finish()]]);
    const run = new ChatRunner().run((await Agent.make(engine)).tool(watch), 'go');
    // The reply has ended (the engine is immediate) by the time the abort comes; the call still runs.
    setTimeout(() => run.abort('stop'), 20);
    const error = await run.result.catch((e: unknown) => e);
    expect(isAmbiError(error, 'aborted')).toBe(true);
    expect(reasons).toEqual(['stop']);
  });

  it('never runs a non-idempotent call from a reply whose stream was cut', async () => {
    let ran = 0;
    const write = defineTool({ name: 'write', description: 'x', parameters: empty, idempotent: false, call: () => ++ran });
    const engine = new StepEngine([[text('[TOOL_CALL]{"name":"write"}[/TOOL_CALL]'), { type: 'fail', error: new Error('socket closed') }]]);
    const agent = (await Agent.make(engine)).tool(write);
    const error = await new ChatRunner().run(agent, 'go').result.catch((e: unknown) => e);
    expect(isAmbiError(error, 'engine_error')).toBe(true);
    expect(ran).toBe(0);
  });

  it("hands each turn's engine and tools a conversation the loop never changes afterwards", async () => {
    const seen: Array<{ by: string; messages: readonly unknown[]; then: unknown }> = [];
    const keep = (by: string, messages: readonly unknown[]) => seen.push({ by, messages, then: structuredClone(messages) });
    const replies: EngineEvent[][] = [
      [call('c1', 'look'), finish('tool_calls')],
      [call('c2', 'look'), finish('tool_calls')],
      [text('Done.'), finish()],
    ];
    const engine: Engine = {
      nativeTools: true,
      async *stream(request) {
        keep('engine', request.messages);
        yield* replies.shift()!;
      },
    };
    const look = defineTool({ name: 'look', description: 'x', parameters: empty, idempotent: false, call: (_a, ctx) => keep('tool', ctx.run!.messages) });
    const agent = (await Agent.make(engine)).tool(look);
    const result = await new ChatRunner().run(agent, 'go').result;
    expect(result.messages).toHaveLength(6);
    expect(seen.map(({ by, messages }) => [by, messages.length])).toEqual([
      ['engine', 1],
      ['tool', 1],
      ['engine', 3],
      ['tool', 3],
      ['engine', 5],
    ]);
    for (const { by, messages, then } of seen) expect(messages, by).toEqual(then);
  });

  it('tells the model about a tool added between runs', async () => {
    const engine = new StepEngine([
      [text('One.'), finish()],
      [text('Two.'), finish()],
    ]);
    const agent = (await Agent.make(engine)).tool(defineTool({ name: 'first', description: 'x', parameters: empty, idempotent: true, call: () => 1 }));
    await new ChatRunner().run(agent, 'go').result;
    agent.tool(defineTool({ name: 'second', description: 'x', parameters: empty, idempotent: true, call: () => 2 }));
    await new ChatRunner().run(agent, 'again').result;
    expect(engine.requests.map((request) => request.tools.map((tool) => tool.name))).toEqual([['first'], ['first', 'second']]);
  });

  it('emits events in order for a run with one call', async () => {
    const echo = defineTool({ name: 'echo', description: 'x', parameters: empty, idempotent: false, call: () => 'hi' });
    const engine = new StepEngine([
      [text('Calling.'), call('c1', 'echo'), finish('tool_calls')],
      [text('Done.'), finish()],
    ]);
    const agent = (await Agent.make(engine)).tool(echo);
    const run = new ChatRunner().run(agent, 'go');
    const types = (await collect(run)).map((e) => e.type);
    expect(types).toEqual(ONE_CALL_EVENT_TYPES);
  });

  it('completes a run whose events nobody reads, and keeps text deltas merged meanwhile', async () => {
    const engine = new StepEngine([[...Array.from({ length: 1_000 }, (_, i) => text(`${i} `)), finish()]]);
    const run = new ChatRunner().run(await Agent.make(engine), 'go');
    const result = await run.result;
    const events = await collect(run);
    expect(result.text.split(' ').filter(Boolean)).toHaveLength(1_000);
    expect(events.map((e) => e.type)).toEqual(['run_started', 'text_delta', 'usage', 'iteration_finished', 'run_finished']);
  });

  it('asks for approval, runs an approved call, and tells the model about a denied one', async () => {
    let deletes = 0;
    const remove = defineTool({
      name: 'delete_note',
      description: 'x',
      parameters: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
      idempotent: false,
      needsApproval: ({ id }) => id !== 'draft',
      call: () => ++deletes,
    });
    const engine = new StepEngine([
      [call('c1', 'delete_note', { id: 'a' }), call('c2', 'delete_note', { id: 'b' }), call('c3', 'delete_note', { id: 'draft' }), finish('tool_calls')],
      [text('Done.'), finish()],
    ]);
    const agent = (await Agent.make(engine)).tool(remove);
    const run = new ChatRunner().run(agent, 'clean up');
    const asked: string[] = [];
    for await (const event of run.events) {
      if (event.type !== 'approval_requested') continue;
      asked.push(event.call.id);
      if (event.call.id === 'c1') run.approve('c1');
      else run.deny(event.call.id, 'keep it');
    }
    const result = await run.result;
    expect(asked).toEqual(['c1', 'c2']);
    expect(deletes).toBe(2);
    expect(result.toolResults.map((r) => (r.ok ? 'ok' : r.error.code))).toEqual(['ok', 'denied', 'ok']);
    expect(JSON.parse(engine.requests[1]!.messages.filter((m) => m.role === 'tool')[1]!.content).error.message).toBe(
      'The user denied this call to "delete_note": keep it',
    );
  });

  it('continues a named conversation and sums usage over turns', async () => {
    const engine = new StepEngine([
      [text('One.'), { type: 'usage', usage: { promptTokens: 10, completionTokens: 2, totalTokens: 12 } }, finish()],
      [text('Two.'), { type: 'usage', usage: { promptTokens: 20, completionTokens: 3, totalTokens: 23 } }, finish()],
    ]);
    const agent = await Agent.make(engine, { preamble: 'You are terse.' });
    const runner = new ChatRunner();
    await runner.run(agent, 'first', { conversation: 'c' }).result;
    const second = await runner.run(agent, 'second', { conversation: 'c' }).result;
    expect(second.usage).toEqual({ promptTokens: 20, completionTokens: 3, totalTokens: 23, requests: 1 });
    expect(engine.requests[1]!.messages.map((m) => m.content)).toEqual(['You are terse.', 'first', 'One.', 'second']);
  });

  it('teaches the tag format in the system prompt when the engine has no native tools, and passes toolChoice', async () => {
    const engine = new StepEngine([[text('ok'), finish()]], false);
    const agent = (await Agent.make(engine, { preamble: 'Be brief.' })).tool(
      defineTool({ name: 'lookup', description: 'Find a note', parameters: empty, idempotent: true, call: () => 1 }),
    );
    await new ChatRunner().run(agent, 'go', { toolChoice: 'required' }).result;
    const [system] = engine.requests[0]!.messages;
    expect(String(system!.content).startsWith('Be brief.\n\n')).toBe(true);
    expect(system!.content).toContain('[TOOL_CALL]');
    expect(system!.content).toContain('lookup');
    expect(engine.requests[0]!.toolChoice).toBe('required');
  });
});
