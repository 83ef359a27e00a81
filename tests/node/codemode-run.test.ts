// Code Mode in runs (Node, in-process sandbox): the model is offered `run_code` alone, and each
// call of its program goes through the run's call pipeline, with its own events under the
// `run_code` call.
import { describe, expect, test } from 'vitest';
import { Agent, ChatRunner, defineTool, isAmbiError, MemoryConversationStore, MemoryToolCallJournal, ToolError, type RunEvent } from '../../src/index.js';
import { appTools, Effects, eventsOf, ProgramEngine } from '../support/codemode.js';

async function codeAgent(engine: ProgramEngine, effects = new Effects(), options: Parameters<typeof Agent.make>[1] = {}) {
  const agent = await Agent.make(engine, { codeMode: true, ...options });
  for (const tool of appTools(effects)) agent.tool(tool);
  return agent;
}

const finished = (events: RunEvent[]) => events.flatMap((e) => (e.type === 'tool_finished' ? [e] : []));

describe('the model in Code Mode', () => {
  test('is offered run_code alone, its description declaring every tool as TypeScript', async () => {
    const engine = new ProgramEngine(['nothing to do']);
    const agent = await codeAgent(engine);
    await new ChatRunner().run(agent, 'hi').result;
    const offered = engine.requests[0]!.tools;
    expect(offered.map((t) => t.name)).toEqual(['run_code']);
    expect(offered[0]!.description).toContain('declare const tools: {');
    expect(offered[0]!.description).toContain('send_email(args: {');
    expect(offered[0]!.description).toContain('lookup(args: {');
    expect(offered[0]!.description).not.toContain('run_code(args');
  });

  test('a tag-calling model is told of run_code alone', async () => {
    const seen: string[] = [];
    const tagModel = {
      nativeTools: false,
      async *stream(request: { messages: ReadonlyArray<{ role: string; content: unknown }> }) {
        seen.push(String(request.messages.find((m) => m.role === 'system')?.content));
        yield { type: 'text' as const, text: 'ok' };
        yield { type: 'finish' as const, reason: 'stop' as const };
      },
    };
    const agent = (await Agent.make(tagModel, { codeMode: true })).tool(appTools(new Effects())[1]!);
    await new ChatRunner().run(agent, 'hi').result;
    expect(seen[0]).toContain('run_code');
    expect(seen[0]).toContain('declare const tools');
    expect(seen[0]!.match(/\[TOOL_CALL\]/g)?.length).toBeGreaterThan(0);
    expect(seen[0]).not.toMatch(/"name":\s*"lookup"/);
  });

  test('an option that is not true, false or { timeoutMs?, memoryBytes? } is refused with invalid_option', async () => {
    for (const bad of ['yes', { timeoutMs: -1 }, { memoryBytes: 1.5 }, JSON.parse('{"__proto__": 1, "timeoutMs": 5}') as unknown, { retries: 3 }]) {
      await expect(Agent.make(new ProgramEngine(['x']), { codeMode: bad as never })).rejects.toSatisfy((e: unknown) => isAmbiError(e, 'invalid_option'));
    }
  });
});

describe('a program’s calls', () => {
  test('run through the pipeline with their own events naming the run_code call as parent, in order', async () => {
    const engine = new ProgramEngine([
      { code: "const p = await tools.lookup({ name: 'Ada' }); return await tools.send_email({ to: p.email, body: 'hi' });" },
      'sent',
    ]);
    const effects = new Effects();
    const agent = await codeAgent(engine, effects);
    const run = new ChatRunner().run(agent, 'mail Ada');
    const events = await eventsOf(run);
    const result = await run.result;
    expect(result.toolResults[0]).toMatchObject({ name: 'run_code', ok: true, output: { result: { sent: true, to: 'ada@example.com' }, logs: [] } });
    const parent = result.toolResults[0]!.id;
    const nested = events.filter((e) => e.parentCallId !== undefined);
    expect(nested.map((e) => [e.type, e.parentCallId])).toEqual([
      ['tool_call', parent],
      ['tool_started', parent],
      ['tool_finished', parent],
      ['tool_call', parent],
      ['tool_started', parent],
      ['tool_finished', parent],
    ]);
    const calls = nested.flatMap((e) => (e.type === 'tool_call' ? [e.call] : []));
    expect(calls.map((c) => [c.id, c.name])).toEqual([
      [`${parent}.0`, 'lookup'],
      [`${parent}.1`, 'send_email'],
    ]);
    // The run_code call's own events carry no parent; its result comes after its calls'.
    expect(finished(events).map((e) => e.result.name)).toEqual(['lookup', 'send_email', 'run_code']);
    expect(events.find((e) => e.type === 'tool_call' && e.call.name === 'run_code')?.parentCallId).toBeUndefined();
    expect(effects.done).toEqual([{ tool: 'send_email', args: { to: 'ada@example.com', body: 'hi' } }]);
    // Only run_code reached the conversation: the model reads the program's output.
    expect(result.messages.filter((m) => m.role === 'tool').map((m) => m.role === 'tool' && m.name)).toEqual(['run_code']);
  });

  test('that need a person pause the program until approved; the approval names the parent', async () => {
    const engine = new ProgramEngine([{ code: "const a = await tools.archive({ id: 'n1' }); return a;" }, 'archived']);
    const effects = new Effects();
    const agent = await codeAgent(engine, effects);
    const run = new ChatRunner().run(agent, 'archive n1');
    const events = await eventsOf(run, (asked) => {
      // Nothing ran before the person said yes.
      expect(effects.count('archive')).toBe(0);
      return asked.call.name === 'archive';
    });
    const result = await run.result;
    const asked = events.find((e) => e.type === 'approval_requested');
    expect(asked).toMatchObject({ call: { name: 'archive', arguments: { id: 'n1' } }, parentCallId: result.toolResults[0]!.id });
    expect(events.find((e) => e.type === 'approval_resolved')).toMatchObject({ approved: true, parentCallId: result.toolResults[0]!.id });
    expect(result.toolResults[0]).toMatchObject({ ok: true, output: { result: 'archived n1' } });
    expect(effects.count('archive')).toBe(1);
  });

  test('on a stored conversation, the record of a program’s asked call ends done once the program ends, and nothing is left waiting', async () => {
    const conversations = new MemoryConversationStore();
    const agent = await codeAgent(new ProgramEngine([{ code: "return await tools.archive({ id: 'n1' });" }, 'archived']), new Effects(), { conversations });
    const run = new ChatRunner().run(agent, 'archive n1', { conversation: 'records' });
    let asked: { id: string; idempotencyKey?: string } | undefined;
    await eventsOf(run, (event) => {
      asked = event.call;
      return true;
    });
    await run.result;
    expect(asked?.idempotencyKey).toBeDefined();
    expect(await conversations.journal.get(asked!.idempotencyKey!)).toMatchObject({ callId: asked!.id, state: 'succeeded', decision: { approved: true } });
    expect(await new ChatRunner().pendingApprovals(agent, 'records')).toEqual([]);
  });

  test('a denial is an error the program can catch, coded denied', async () => {
    const code = "try { await tools.archive({ id: 'n1' }); return 'ran'; } catch (e) { return { code: e.code, message: e.message }; }";
    const effects = new Effects();
    const agent = await codeAgent(new ProgramEngine([{ code }, 'ok']), effects);
    const run = new ChatRunner().run(agent, 'archive n1');
    await eventsOf(run, () => false);
    const result = await run.result;
    expect(result.toolResults[0]).toMatchObject({ ok: true, output: { result: { code: 'denied', message: expect.stringContaining('not now') } } });
    expect(effects.count('archive')).toBe(0);
  });

  test('invalid arguments, unknown names and a tool’s own error are catchable, each with its code; nothing ran', async () => {
    const code = `
      const codes = [];
      for (const attempt of [() => tools.send_email({ to: 42 }), () => tools.lookup({ name: '' }), () => tools.fail({}), () => tools.send_email({ to: 'a', body: 'b', extra: { __proto__: { admin: true } } })]) {
        try { await attempt(); codes.push('ran'); } catch (e) { codes.push(e.code); }
      }
      return codes;`;
    const effects = new Effects();
    const agent = await codeAgent(new ProgramEngine([{ code }, 'ok']), effects);
    agent.tool(
      defineTool({
        name: 'fail',
        description: 'Always fails',
        parameters: { type: 'object', properties: {} },
        readOnly: true,
        call: () => {
          throw new ToolError('no such note');
        },
      }),
    );
    const result = await new ChatRunner().run(agent, 'go').result;
    expect(result.toolResults[0]).toMatchObject({
      ok: true,
      output: { result: ['invalid_arguments', 'invalid_arguments', 'tool_error', 'invalid_arguments'] },
    });
    expect(effects.done).toEqual([]);
  });

  test('a call whose tool is not in the program’s tools is not a function; run_code is not among them', async () => {
    const code =
      "const names = Object.keys(tools); let error; try { await tools.run_code({ code: 'return 1' }); } catch (e) { error = e.message; } return { names, error };";
    const agent = await codeAgent(new ProgramEngine([{ code }, 'ok']));
    const result = await new ChatRunner().run(agent, 'go').result;
    const output = result.toolResults[0] as unknown as { output: { result: { names: string[]; error: string } } };
    expect(output.output.result.names.sort()).toEqual(['archive', 'lookup', 'send_email']);
    expect(output.output.result.error).toMatch(/not a function/);
  });

  test('a timed-out call is retried only when its tool is idempotent', async () => {
    let slowCalls = 0;
    let flakyCalls = 0;
    const code = 'let slow; try { await tools.slow({}); } catch (e) { slow = e.code; } const flaky = await tools.flaky({}); return { slow, flaky };';
    const agent = await codeAgent(new ProgramEngine([{ code }, 'ok']));
    const schema = { type: 'object', properties: {} } as const;
    agent.tool(
      defineTool({
        name: 'slow',
        description: 'Never answers in time',
        parameters: schema,
        idempotent: false,
        timeoutMs: 30,
        call: () => {
          slowCalls++;
          return new Promise(() => {});
        },
      }),
    );
    agent.tool(
      defineTool({
        name: 'flaky',
        description: 'Slow once',
        parameters: schema,
        idempotent: true,
        timeoutMs: 30,
        retryDelayMs: 1,
        call: () => (++flakyCalls === 1 ? new Promise(() => {}) : 'fine'),
      }),
    );
    const run = new ChatRunner().run(agent, 'go');
    const events = await eventsOf(run);
    const result = await run.result;
    expect(result.toolResults[0]).toMatchObject({ ok: true, output: { result: { slow: 'timeout', flaky: 'fine' } } });
    expect([slowCalls, flakyCalls]).toEqual([1, 2]);
    expect(events.filter((e) => e.type === 'tool_retry').map((e) => e.parentCallId)).toEqual([result.toolResults[0]!.id]);
  });

  test('a runner with one slot runs a program’s parallel calls; a runner of two runs at most two at once', async () => {
    let active = 0;
    let most = 0;
    const wait = defineTool({
      name: 'wait',
      description: 'Wait a little',
      parameters: { type: 'object', properties: { n: { type: 'number' } } },
      readOnly: true,
      call: async ({ n }: { n?: number }) => {
        most = Math.max(most, ++active);
        await new Promise((r) => setTimeout(r, 10));
        active--;
        return n ?? 0;
      },
    });
    const code = 'return (await Promise.all([1, 2, 3, 4, 5].map((n) => tools.wait({ n })))).reduce((a, b) => a + b, 0);';
    for (const [slots, expected] of [
      [1, 1],
      [2, 2],
    ] as const) {
      most = 0;
      const agent = (await codeAgent(new ProgramEngine([{ code }, 'ok']))).tool(wait);
      const result = await new ChatRunner(slots).run(agent, 'go').result;
      expect(result.toolResults[0]).toMatchObject({ ok: true, output: { result: 15 } });
      expect(most).toBe(expected);
    }
  });

  test('abort stops the program and its calls: the tool sees its signal aborted, the run fails aborted', async () => {
    let signal: AbortSignal | undefined;
    const agent = await codeAgent(new ProgramEngine([{ code: 'await tools.hang({}); return 1;' }, 'never']));
    agent.tool(
      defineTool({
        name: 'hang',
        description: 'Hangs',
        parameters: { type: 'object', properties: {} },
        readOnly: true,
        call: (_a, ctx) => {
          signal = ctx.signal;
          return new Promise(() => {});
        },
      }),
    );
    const run = new ChatRunner().run(agent, 'go');
    const events: RunEvent[] = [];
    for await (const event of run.events) {
      events.push(event);
      if (event.type === 'tool_started' && event.name === 'hang') run.abort();
    }
    await expect(run.result).rejects.toSatisfy((e: unknown) => isAmbiError(e, 'aborted'));
    expect(signal?.aborted).toBe(true);
    expect(
      finished(events)
        .map((e) => [e.result.name, e.result.ok ? 'ok' : e.result.error.code, e.parentCallId !== undefined])
        .sort(),
    ).toEqual([
      ['hang', 'aborted', true],
      ['run_code', 'aborted', false],
    ]);
  });

  test('a program past its deadline ends program_timeout, a throw program_error with its line and logs; the model reads both', async () => {
    const engine = new ProgramEngine([{ code: 'while (true) {}' }, { code: "console.log('before');\nthrow new TypeError('bad input');" }, 'gave up']);
    const agent = await Agent.make(engine, { codeMode: { timeoutMs: 50 } });
    const result = await new ChatRunner().run(agent, 'go').result;
    expect(result.toolResults.map((r) => (r.ok ? 'ok' : r.error.code))).toEqual(['program_timeout', 'program_error']);
    const second = result.toolResults[1]!;
    expect(!second.ok && second.error.message).toMatch(/TypeError: bad input[\s\S]*line 2[\s\S]*before/);
  });
});

describe('a reply that still streams', () => {
  test('run_code never starts before its reply ended, even where it counts as idempotent: its program’s calls may have effects', async () => {
    const effects = new Effects();
    const engine = new ProgramEngine([{ code: "return await tools.send_email({ to: 'a@example.com', body: 'hi' });" }, 'sent']);
    const stream = engine.stream.bind(engine);
    const events: RunEvent[] = [];
    let startedWhileStreaming: boolean | undefined;
    engine.stream = async function* (request) {
      for await (const event of stream(request)) {
        if (event.type === 'finish' && event.reason === 'tool_calls') {
          // The reply's call was read; the reply has not ended yet.
          await new Promise((resolve) => setTimeout(resolve, 100));
          startedWhileStreaming = events.some((e) => e.type === 'tool_started' && e.name === 'run_code');
        }
        yield event;
      }
    };
    const run = new ChatRunner().run(await codeAgent(engine, effects, { journal: new MemoryToolCallJournal() }), 'mail a');
    for await (const event of run.events) events.push(event);
    await run.result;
    expect(startedWhileStreaming).toBe(false);
    expect(effects.count('send_email')).toBe(1);
  });
});

describe('resume after a reload', () => {
  test('runs the program again from its start, answering the calls it made from the journal: every effect once', async () => {
    const conversations = new MemoryConversationStore();
    const journal = new MemoryToolCallJournal();
    const code =
      "const sent = await tools.send_email({ to: 'a@example.com', body: 'hi' }); const archived = await tools.archive({ id: 'n1' }); return { sent, archived };";
    const effects = new Effects();
    const first = await codeAgent(new ProgramEngine([{ code }, 'never']), effects, { conversations, journal });
    const run = new ChatRunner().run(first, 'mail then archive', { conversation: 'c1' });
    // The page reloads while the program waits for the person.
    for await (const event of run.events) if (event.type === 'approval_requested') run.suspend();
    await expect(run.result).rejects.toSatisfy((e: unknown) => isAmbiError(e, 'suspended'));
    expect(effects.count('send_email')).toBe(1);

    const engine = new ProgramEngine(['all done']);
    const second = await codeAgent(engine, effects, { conversations, journal });
    // The page after the reload lists what waits: the program's call, under its run_code call.
    expect(await new ChatRunner().pendingApprovals(second, 'c1')).toMatchObject([
      { callId: 'program_1.1', call: { name: 'archive' }, parentCallId: 'program_1' },
    ]);
    const resumed = new ChatRunner().resume(second, 'c1');
    const events = await eventsOf(resumed, () => true);
    const result = await resumed.result;
    expect(result.text).toBe('all done');
    expect(effects.done.map((e) => e.tool)).toEqual(['send_email', 'archive']);
    expect(result.toolResults[0]).toMatchObject({ name: 'run_code', ok: true, output: { result: { sent: { sent: true }, archived: 'archived n1' } } });
    // The journal answered the first call: it was reported, never started again.
    const sent = finished(events).find((e) => e.result.name === 'send_email');
    expect(sent?.parentCallId).toBe(result.toolResults[0]!.id);
    expect(events.some((e) => e.type === 'tool_started' && e.name === 'send_email')).toBe(false);
  });

  test('with the conversation store’s own journal alone, a resume runs the program again too: every effect once', async () => {
    const conversations = new MemoryConversationStore();
    const code = "const sent = await tools.send_email({ to: 'a@example.com', body: 'hi' }); return { sent, archived: await tools.archive({ id: 'n1' }) };";
    const effects = new Effects();
    const run = new ChatRunner().run(await codeAgent(new ProgramEngine([{ code }, 'never']), effects, { conversations }), 'go', { conversation: 'c3' });
    for await (const event of run.events) if (event.type === 'approval_requested') run.suspend();
    await expect(run.result).rejects.toSatisfy((e: unknown) => isAmbiError(e, 'suspended'));
    const second = await codeAgent(new ProgramEngine(['all done']), effects, { conversations });
    expect(await new ChatRunner().pendingApprovals(second, 'c3')).toMatchObject([{ call: { name: 'archive' }, parentCallId: 'program_1' }]);
    const resumed = new ChatRunner().resume(second, 'c3');
    await eventsOf(resumed, () => true);
    const result = await resumed.result;
    expect(result.toolResults[0]).toMatchObject({ name: 'run_code', ok: true, output: { result: { sent: { sent: true }, archived: 'archived n1' } } });
    expect(effects.done.map((e) => e.tool)).toEqual(['send_email', 'archive']);
  });

  test('a call cut off after it started is not run again: the program gets outcome_unknown, catchable', async () => {
    const conversations = new MemoryConversationStore();
    const journal = new MemoryToolCallJournal();
    const code = "try { await tools.send_email({ to: 'a@example.com', body: 'hi' }); return 'sent'; } catch (e) { return e.code; }";
    let release: (() => void) | undefined;
    const effects = new Effects();
    const first = await codeAgent(new ProgramEngine([{ code }, 'never']), effects, { conversations, journal });
    first.registry.unregister('send_email');
    first.tool(
      defineTool({
        name: 'send_email',
        description: 'Send',
        parameters: { type: 'object', properties: {}, additionalProperties: true },
        idempotent: false,
        call: () => {
          effects.done.push({ tool: 'send_email', args: {} });
          return new Promise<string>((r) => {
            release = () => r('late');
          });
        },
      }),
    );
    // The tab dies while the call runs: its journal entry stays `started` (its end is never written).
    const finish = journal.finish;
    journal.finish = async () => {};
    const run = new ChatRunner().run(first, 'mail', { conversation: 'c2' });
    for await (const event of run.events) if (event.type === 'tool_started' && event.name === 'send_email') run.suspend();
    await run.result.catch(() => {});
    release?.();
    journal.finish = finish;
    const resumed = new ChatRunner().resume(await codeAgent(new ProgramEngine(['checked']), effects, { conversations, journal }), 'c2');
    const result = await resumed.result;
    expect(result.toolResults[0]).toMatchObject({ ok: true, output: { result: 'outcome_unknown' } });
    expect(effects.count('send_email')).toBe(1);
  });
});
