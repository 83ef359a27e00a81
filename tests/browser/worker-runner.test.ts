import { describe, expect, it } from 'vitest';
import { defineTool, isAmbiError, ToolError } from '../../src/index.js';
import { collect, ONE_CALL_EVENT_TYPES } from '../support/run-events.js';
import { untilAborted } from '../support/tools.js';
import { callOf, runnersClosedAfterEach } from '../support/worker-runners.js';

const { runnerWith } = runnersClosedAfterEach();

const toolWorker = () => new Worker(new URL('./fixtures/tools.worker.ts', import.meta.url), { type: 'module' });

/** A page tool named `name` that takes an empty object and returns what `call` does. */
const pageTool = (name: string, call: () => unknown) => defineTool({ name, description: 'x', parameters: { type: 'object' }, idempotent: true, call });

/** A page tool `hang` that runs until its signal aborts, records the reason in `seen`, then rejects with it. */
const hangingTool = (seen: unknown[]) => untilAborted('hang', (signal) => seen.push(signal.reason));

describe('WorkerRunner: main-thread tools', () => {
  it('runs a main-thread tool that reads the DOM, from the runner worker', async () => {
    const heading = document.createElement('h2');
    heading.id = 'greeting';
    heading.textContent = 'Hello from the page';
    document.body.append(heading);
    const readDom = defineTool({
      name: 'read_heading',
      description: 'Read the heading text',
      parameters: { type: 'object', properties: { selector: { type: 'string' } }, required: ['selector'] },
      idempotent: true,
      call: ({ selector }) => document.querySelector(selector)?.textContent ?? null,
    });
    const runner = runnerWith([callOf('read_heading', { selector: '#greeting' }), 'It says hello.']).tool(readDom);
    const result = await runner.run('What does the heading say?').result;
    expect(result.toolResults).toMatchObject([{ ok: true, output: 'Hello from the page' }]);
    expect(result.text).toBe('It says hello.');
    heading.remove();
  });

  it('reads a long reply in pieces: the first calls run and their results come back while the rest is read', async () => {
    // 2,000 calls in one reply, one at a time: reading them all takes milliseconds. Read in one go,
    // every tool_call would come before the first tool_finished (the page's answers wait behind it).
    const calls = 2000;
    const reply = { toolCalls: Array.from({ length: calls }, () => ({ name: 'ping', arguments: {} })) };
    const runner = runnerWith([reply, 'Done.'], { concurrency: 1 }).tool(pageTool('ping', () => 'pong'));
    const events = await collect(runner.run('ping', { maxCallsPerReply: calls }));
    const types = events.map((event) => event.type);
    expect(types.filter((type) => type === 'tool_finished')).toHaveLength(calls);
    expect(types.indexOf('tool_finished')).toBeLessThan(types.lastIndexOf('tool_call'));
    // Results and their order are as ever.
    const finished = events.flatMap((event) => (event.type === 'tool_finished' ? [event.result] : []));
    const called = events.flatMap((event) => (event.type === 'tool_call' ? [event.call.id] : []));
    expect(finished.map((result) => result.id)).toEqual(called);
    expect(finished.every((result) => result.ok)).toBe(true);
  });

  it('streams events across the boundary in order', async () => {
    const echo = defineTool({ name: 'echo', description: 'x', parameters: { type: 'object' }, idempotent: false, call: () => 'hi' });
    const run = runnerWith([{ text: 'Calling.', toolCalls: [{ name: 'echo', arguments: {} }] }, 'Done.'])
      .tool(echo)
      .run('go');
    const events = await collect(run);
    // Text may arrive in several deltas; what matters is the order of the steps and the whole text.
    const types = events.map((e) => e.type).filter((type, i, all) => !(type === 'text_delta' && all[i - 1] === 'text_delta'));
    expect(types).toEqual(ONE_CALL_EVENT_TYPES);
    expect(events.flatMap((e) => (e.type === 'text_delta' ? [e.text] : [])).join('')).toBe('Calling.Done.');
  });

  it('aborts a main-thread tool on timeout, on the page, and discards its late result', async () => {
    const reasons: string[] = [];
    let lateDelivered = false;
    const stubborn = defineTool({
      name: 'stubborn',
      description: 'x',
      parameters: { type: 'object' },
      idempotent: false,
      timeoutMs: 40,
      call: (_args, { signal }) => {
        signal.addEventListener('abort', () => reasons.push((signal.reason as DOMException).name));
        return new Promise((resolve) =>
          setTimeout(() => {
            lateDelivered = true;
            resolve('late');
          }, 150),
        );
      },
    });
    const result = await runnerWith([callOf('stubborn'), 'ok'])
      .tool(stubborn)
      .run('go').result;
    await new Promise((r) => setTimeout(r, 200));
    expect(lateDelivered).toBe(true);
    expect(reasons).toEqual(['TimeoutError']);
    expect(result.toolResults).toMatchObject([{ ok: false, error: { code: 'timeout' }, attempts: 1 }]);
  });

  it('aborts a main-thread tool when the run is aborted, and rejects with code aborted', async () => {
    const seen: unknown[] = [];
    const run = runnerWith([callOf('hang')])
      .tool(hangingTool(seen))
      .run('go');
    const events = await collect(run, (event) => event.type === 'tool_started' && run.abort('stop pressed'));
    const error = await run.result.catch((e: unknown) => e);
    expect(isAmbiError(error, 'aborted')).toBe(true);
    expect(seen).toEqual(['stop pressed']);
    expect(events.at(-1)).toMatchObject({ type: 'run_failed', error: { code: 'aborted' } });
  });

  it('keeps an Error given as the abort reason an Error across the boundary, in the run failure and in the page tool signal', async () => {
    const seen: unknown[] = [];
    const run = runnerWith([callOf('hang')])
      .tool(hangingTool(seen))
      .run('go');
    await collect(run, (event) => event.type === 'tool_started' && run.abort(new ToolError('user left')));
    const error = await run.result.catch((e: unknown) => e);
    expect(isAmbiError(error, 'aborted')).toBe(true);
    expect((error as Error).message).toBe('The run was aborted: user left');
    expect(seen).toHaveLength(1);
    expect(seen[0]).toBeInstanceOf(Error);
    expect(isAmbiError(seen[0], 'tool_error')).toBe(true);
    expect((seen[0] as Error).message).toBe('user left');
  });

  it('gives a main-thread tool that reads its signal only after the run was aborted an aborted signal, with the reason', async () => {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const seen: unknown[] = [];
    const late = defineTool({
      name: 'late_reader',
      description: 'x',
      parameters: { type: 'object' },
      idempotent: true,
      call: async (_args, ctx) => {
        await gate;
        seen.push(ctx.signal.aborted, ctx.signal.reason);
        return 'too late';
      },
    });
    const run = runnerWith([callOf('late_reader')])
      .tool(late)
      .run('go');
    const events = collect(run, (event) => event.type === 'tool_started' && run.abort('stop pressed'));
    expect(isAmbiError(await run.result.catch((e: unknown) => e), 'aborted')).toBe(true);
    await events;
    open();
    await expect.poll(() => seen).toEqual([true, 'stop pressed']);
  });

  it('ends a main-thread tool that throws, returns what JSON cannot hold, or returns a broken thenable, as crashed, and runs on', async () => {
    const outputs: Record<string, () => unknown> = {
      throws: () => {
        throw new Error('page tool broke');
      },
      not_json: () => ({ run: () => 1 }),
      bad_then: () =>
        Object.defineProperty({}, 'then', {
          get: () => {
            throw new Error('no then');
          },
        }),
      fine: () => 'ok',
    };
    const runner = runnerWith([{ toolCalls: Object.keys(outputs).map((name) => ({ id: name, name, arguments: {} })) }, 'done.']);
    for (const [name, call] of Object.entries(outputs)) runner.tool(pageTool(name, call));
    const result = await runner.run('go').result;
    expect(result.toolResults.map((r) => [r.id, r.ok ? r.output : r.error.code])).toEqual([
      ['throws', 'crashed'],
      ['not_json', 'crashed'],
      ['bad_then', 'crashed'],
      ['fine', 'ok'],
    ]);
    const messages = result.toolResults.map((r) => (r.ok ? '' : r.error.message));
    expect(messages[0]).toContain('page tool broke');
    expect(messages[1]).toContain('/run is a function');
    expect(messages[2]).toContain('no then');
    expect(result.text).toBe('done.');
  });

  it('keeps error codes across the boundary: tool_error from the page, max_iterations from the loop', async () => {
    const refuse = pageTool('refuse', () => {
      throw new ToolError('No.');
    });
    const runner = runnerWith([callOf('refuse'), callOf('refuse')]).tool(refuse);
    const error = await runner.run('go', { maxIterations: 2 }).result.catch((e: unknown) => e);
    expect(isAmbiError(error, 'max_iterations')).toBe(true);
    const runner2 = runnerWith([callOf('refuse'), 'fine']).tool(refuse);
    const result = await runner2.run('go').result;
    expect(result.toolResults).toMatchObject([{ ok: false, error: { code: 'tool_error', message: 'No.' } }]);
  });

  it('asks the page for approval and runs the call once approved', async () => {
    let ran = 0;
    const remove = defineTool({
      name: 'remove',
      description: 'x',
      parameters: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
      idempotent: false,
      needsApproval: ({ id }) => id.startsWith('keep') === false,
      call: () => ++ran,
    });
    const run = runnerWith([callOf('remove', { id: 'n1' }, 'c1'), 'Removed.'])
      .tool(remove)
      .run('go');
    await collect(run, (event) => event.type === 'approval_requested' && run.approve(event.call.id));
    expect((await run.result).text).toBe('Removed.');
    expect(ran).toBe(1);
  });
});

describe('WorkerRunner: dedicated tool workers', () => {
  it('runs a tool in its own worker', async () => {
    const runner = runnerWith([callOf('square', { n: 7 }), 'Done.']);
    expect(await runner.workerTools(toolWorker)).toEqual(['square', 'slow_square', 'spin', 'refuse', 'explode']);
    const result = await runner.run('go').result;
    expect(result.toolResults).toMatchObject([{ ok: true, output: { n: 7, square: 49, realm: 'worker' } }]);
  });

  it('terminates a CPU-spinning tool worker, ends the calls in it with a code, and serves the next call from a fresh one', async () => {
    let started = 0;
    const runner = runnerWith([
      {
        toolCalls: [
          { id: 'slow', name: 'slow_square', arguments: { n: 3, ms: 400 } },
          { id: 'spin', name: 'spin', arguments: {} },
        ],
      },
      callOf('square', { n: 5 }, 'after'),
      'Done.',
    ]);
    await runner.workerTools(() => (started++, toolWorker()), { graceMs: 50 });
    const result = await runner.run('go').result;
    expect(result.toolResults.map((r) => [r.id, r.ok ? r.output : r.error.code])).toEqual([
      ['slow', 'worker_terminated'],
      ['spin', 'timeout'],
      ['after', { n: 5, square: 25, realm: 'worker' }],
    ]);
    expect(started).toBe(2);
  });

  it('keeps a ToolError from a tool worker as tool_error', async () => {
    const runner = runnerWith([callOf('refuse'), 'ok']);
    await runner.workerTools(toolWorker);
    const result = await runner.run('go').result;
    expect(result.toolResults).toMatchObject([{ ok: false, error: { code: 'tool_error', message: 'Not allowed here' }, attempts: 1 }]);
  });

  it('ends a call with worker_crashed when its worker dies, and the next call gets a fresh worker', async () => {
    const runner = runnerWith([callOf('explode', {}, 'boom'), callOf('square', { n: 2 }, 'next'), 'ok']);
    await runner.workerTools(toolWorker);
    const result = await runner.run('go').result;
    expect(result.toolResults.map((r) => [r.id, r.ok ? 'ok' : r.error.code])).toEqual([
      ['boom', 'worker_crashed'],
      ['next', 'ok'],
    ]);
  });

  it('refuses a tool worker whose tool name is taken: none of its tools are added, and the page tool of that name still answers', async () => {
    let started = 0;
    const runner = runnerWith([
      {
        toolCalls: [
          { id: 'page', name: 'spin', arguments: {} },
          { id: 'other', name: 'slow_square', arguments: { n: 2, ms: 1 } },
        ],
      },
      'ok',
    ]);
    runner.tool(pageTool('spin', () => 'page spin'));
    // 'spin' is the worker's third tool: the two before it must not stay claimed.
    const error = await runner.workerTools(() => (started++, toolWorker())).catch((e: unknown) => e);
    expect(isAmbiError(error, 'duplicate_tool')).toBe(true);
    expect((error as Error).message).toContain('"spin"');
    expect(started).toBe(1);
    expect(() => runner.tool(pageTool('square', () => 'page square'))).not.toThrow();
    const result = await runner.run('go').result;
    expect(result.toolResults.map((r) => [r.id, r.ok ? r.output : r.error.code])).toEqual([
      ['page', 'page spin'],
      ['other', 'unknown_tool'],
    ]);
  });

  it('fails the next run with every tool the runner worker refused, names each, and serves the rest', async () => {
    const tool = (name: string, parameters: object) =>
      defineTool({ name, description: 'x', parameters: parameters as { type: 'object' }, idempotent: true, call: () => `${name} ran` });
    // The page checks a schema's shape; the worker, which validates calls, compiles it and refuses these.
    const badType = tool('bad_type', { type: 'object', properties: { a: { type: 'nonsense' } } });
    const badRef = tool('bad_ref', { type: 'object', properties: { a: { $ref: '#/definitions/missing' } } });
    const runner = runnerWith([
      {
        toolCalls: [
          { id: 'good', name: 'fine', arguments: {} },
          { id: 'bad', name: 'bad_type', arguments: {} },
        ],
      },
      'done',
    ]);
    runner
      .tool(badType)
      .tool(badRef)
      .tool(pageTool('fine', () => 'fine ran'));
    const error = await runner.run('first').result.catch((e: unknown) => e);
    expect(isAmbiError(error, 'invalid_tool')).toBe(true);
    expect((error as Error).message).toContain('refused 2 tools');
    expect((error as Error).message).toContain('bad_type');
    expect((error as Error).message).toContain('bad_ref');
    const result = await runner.run('second').result;
    expect(result.toolResults.map((r) => [r.id, r.ok ? r.output : r.error.code])).toEqual([
      ['good', 'fine ran'],
      ['bad', 'unknown_tool'],
    ]);
  });

  it('refuses a tool worker that exposes two tools under one name', async () => {
    const runner = runnerWith(['unused']);
    const error = await runner
      .workerTools(() => new Worker(new URL('./fixtures/duplicate-tools.worker.ts', import.meta.url), { type: 'module' }))
      .catch((e: unknown) => e);
    expect(isAmbiError(error, 'worker_crashed')).toBe(true);
    expect((error as Error).message).toContain('A tool named "echo" is already registered');
  });

  it('rejects workerTools with worker_crashed when the tool worker fails to load', async () => {
    const runner = runnerWith(['unused']);
    const error = await runner.workerTools(() => new Worker('/no-such-tool-worker.js', { type: 'module' })).catch((e: unknown) => e);
    expect(isAmbiError(error, 'worker_crashed')).toBe(true);
  });
});

describe('WorkerRunner: failure without hangs', () => {
  it('rejects a run with worker_crashed when the runner worker fails to load', async () => {
    const runner = runnerWith(['x'], { worker: () => new Worker('/no-such-runner.js', { type: 'module' }) });
    const run = runner.run('go');
    const events = await collect(run);
    const error = await run.result.catch((e: unknown) => e);
    expect(isAmbiError(error, 'worker_crashed')).toBe(true);
    expect(events).toMatchObject([{ type: 'run_failed', error: { code: 'worker_crashed' } }]);
  });

  it('close() with calls in flight rejects the run with code closed, aborts the page tools and stops the tool workers', async () => {
    const aborted: unknown[] = [];
    const runner = runnerWith([
      {
        toolCalls: [
          { name: 'hang', arguments: {} },
          { name: 'slow_square', arguments: { n: 1, ms: 10_000 } },
        ],
      },
    ]).tool(hangingTool(aborted));
    await runner.workerTools(toolWorker);
    const run = runner.run('go');
    let startedTools = 0;
    const events = await collect(run, (event) => event.type === 'tool_started' && ++startedTools === 2 && runner.close());
    const error = await run.result.catch((e: unknown) => e);
    expect(isAmbiError(error, 'closed')).toBe(true);
    expect(events.at(-1)).toMatchObject({ type: 'run_failed', error: { code: 'closed' } });
    const after = await runner.run('again').result.catch((e: unknown) => e);
    expect(isAmbiError(after, 'closed')).toBe(true);
    expect(aborted.map((reason) => (reason as Error).message)).toEqual(['The runner was closed']); // the page tool in flight was told
  });
});
