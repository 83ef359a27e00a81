// Shared runners (`createWorkerRunner({ shared: true })`) in real Chromium, on the origin's one
// SharedWorker. Each runner here is one page of the origin as that worker sees it (its own port,
// its own page lock, this document's tab): closing a runner is what closing its tab does to the
// runner, and a runner made after it in this document is the tab's next page (a navigation).
import * as Comlink from 'comlink';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createWorkerRunner,
  defineTool,
  isAmbiError,
  type RunEvent,
  type ScriptedReply,
  scriptedEngine,
  type Tool,
  type WorkerRunner,
  type WorkerRunnerOptions,
} from '../../src/index.js';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { z } from 'zod';
import { collect } from '../support/run-events.js';
import { approvedRemove, removeCall } from '../support/tools.js';

const open: WorkerRunner[] = [];
const closed = new Set<WorkerRunner>();
afterEach(() => {
  open.splice(0).forEach((runner) => runner.close());
  closed.clear();
});

/** Close a page's runner, as closing its tab (or leaving it) does. */
function shut(runner: WorkerRunner): void {
  runner.close();
  closed.add(runner);
}

/**
 * Wait until the SharedWorker has seen every closed page go: each page holds a Web Lock while it
 * lives, which the worker takes (and lets go of) once the page released it, so then the page
 * locks held are those of the pages still open.
 */
async function settled(): Promise<void> {
  const live = open.filter((runner) => !closed.has(runner)).length;
  for (;;) {
    const { held = [] } = await navigator.locks.query();
    if (held.filter((lock) => lock.name?.startsWith('ambi-web:page:')).length === live) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/**
 * A page of the origin: a shared runner on a scripted engine. Pages given the same `origin` (and
 * replies) are configured alike, so they share one agent in the SharedWorker; another test's
 * pages, with another `origin`, have one of their own.
 */
function page(origin: string, replies: ScriptedReply[], options: Omit<WorkerRunnerOptions, 'engine'> = {}): WorkerRunner {
  const runner = createWorkerRunner({ shared: true, engine: scriptedEngine(replies), preamble: `origin ${origin}`, ...options });
  open.push(runner);
  return runner;
}

/** A page tool that never answers (until its page goes), and tells when it was called. */
function stuckTool(name: string, called: () => void): Tool {
  return defineTool({
    name,
    description: 'Mark the page',
    parameters: { type: 'object', properties: {} },
    idempotent: false,
    call: () => {
      called();
      return new Promise(() => {});
    },
  });
}

/** Read a run's events up to the first of type `type`, and leave the rest unread. */
async function until(run: { events: AsyncIterable<RunEvent> }, type: RunEvent['type']): Promise<RunEvent[]> {
  const seen: RunEvent[] = [];
  for await (const event of run.events) {
    seen.push(event);
    if (event.type === type) break;
  }
  return seen;
}

describe('a shared runner: runs every page of the origin sees', () => {
  it('lists a run another page started; that page attaches, approves, and both get the result', async () => {
    const origin = crypto.randomUUID();
    const replies = [removeCall('c1', 'a'), 'Removed.'];
    const ran: string[] = [];
    const a = page(origin, replies).tool(approvedRemove(ran));
    const b = page(origin, replies);
    const run = a.run('remove a', { conversation: 'notes' });
    await until(run, 'approval_requested');
    const mine = (await b.runs()).find((info) => info.runId === run.runId);
    expect(mine).toMatchObject({ conversation: 'notes', status: 'waiting', waiting: [{ callId: 'c1', call: { name: 'remove', arguments: { note: 'a' } } }] });
    expect(mine?.waiting[0]?.requestedAt).toBeGreaterThan(0);
    const attached = b.attach(run.runId);
    const seen = await collect(attached, (event) => event.type === 'approval_requested' && attached.approve('c1'));
    const [resultA, resultB] = await Promise.all([run.result, attached.result]);
    expect(resultA.text).toBe('Removed.');
    expect(resultB).toEqual(resultA);
    expect(ran).toEqual(['a']);
    // The state so far (the run's start, its card), then what came after, each once.
    expect(seen.map((e) => e.type)).toEqual(
      [
        'run_started',
        'tool_call',
        'usage',
        'approval_requested',
        'approval_resolved',
        'tool_started',
        'tool_finished',
        'iteration_finished',
        'text_delta',
        'usage',
        'iteration_finished',
        'run_finished',
      ].filter((type) => seen.some((e) => e.type === type)),
    );
    expect(seen.filter((e) => e.type === 'approval_requested')).toHaveLength(1);
    expect((await b.runs()).some((info) => info.runId === run.runId)).toBe(false);
  });

  it('a run goes on when the page that started it goes; the tab’s next page attaches mid-approval and approves', async () => {
    const origin = crypto.randomUUID();
    const replies = [removeCall('c1', 'groceries'), 'Removed it.'];
    const ran: string[] = [];
    const first = page(origin, replies).tool(approvedRemove(ran));
    const run = first.run('remove groceries');
    await until(run, 'approval_requested');
    shut(first);
    expect(isAmbiError(await run.result.catch((e: unknown) => e), 'closed')).toBe(true);
    const next = page(origin, replies).tool(approvedRemove(ran));
    const listed = await next.runs();
    expect(listed.find((info) => info.runId === run.runId)?.status).toBe('waiting');
    const attached = next.attach(run.runId);
    const events = await collect(attached, (event) => event.type === 'approval_requested' && attached.approve('c1'));
    expect((await attached.result).text).toBe('Removed it.');
    // The tool ran once, on the page that registered it now.
    expect(ran).toEqual(['groceries']);
    expect(
      events
        .filter((e) => e.type === 'text_delta')
        .map((e) => (e as { text: string }).text)
        .join(''),
    ).toBe('Removed it.');
  });

  it('attaching to an unknown run ends at once with unknown_run; an empty id with invalid_option', async () => {
    const b = page(crypto.randomUUID(), ['x']);
    const attached = b.attach('no-such-run');
    expect(await collect(attached)).toMatchObject([{ type: 'run_failed', error: { code: 'unknown_run' } }]);
    expect(isAmbiError(await attached.result.catch((e: unknown) => e), 'unknown_run')).toBe(true);
    expect(isAmbiError(await b.attach('').result.catch((e: unknown) => e), 'invalid_option')).toBe(true);
  });

  it('a page attaches once to a run it follows: a second attach is duplicate_run', async () => {
    const origin = crypto.randomUUID();
    const a = page(origin, [removeCall('c1', 'x'), 'ok']).tool(approvedRemove([]));
    const run = a.run('go');
    await until(run, 'approval_requested');
    expect(isAmbiError(await a.attach(run.runId).result.catch((e: unknown) => e), 'duplicate_run')).toBe(true);
    run.abort();
  });

  it('a run id another page’s run holds is refused: duplicate_run', async () => {
    const origin = crypto.randomUUID();
    const a = page(origin, [removeCall('c1', 'x'), 'ok']).tool(approvedRemove([]));
    const b = page(origin, ['never']);
    const run = a.run('go', { runId: 'taken' });
    await until(run, 'approval_requested');
    expect(isAmbiError(await b.run('mine', { runId: 'taken' }).result.catch((e: unknown) => e), 'duplicate_run')).toBe(true);
    run.abort();
  });

  it('two pages approving the same call at once: decided once, the tool runs once', async () => {
    const origin = crypto.randomUUID();
    const replies = [removeCall('c1', 'both'), 'Done.'];
    const ran: string[] = [];
    const a = page(origin, replies).tool(approvedRemove(ran));
    const b = page(origin, replies);
    const run = a.run('remove both');
    await until(run, 'approval_requested');
    const attached = b.attach(run.runId);
    await until(attached, 'approval_requested');
    run.approve('c1');
    attached.deny('c1', 'too late');
    attached.approve('c1');
    const [result] = await Promise.all([run.result, attached.result]);
    expect(ran).toEqual(['both']);
    expect(result.toolResults).toMatchObject([{ id: 'c1', ok: true }]);
    const rest = await collect(attached);
    expect(rest.filter((e) => e.type === 'approval_resolved')).toHaveLength(1);
  });

  it('100 pages attach to one run: each gets its card once and the same result', async () => {
    const origin = crypto.randomUUID();
    const replies = [removeCall('c1', 'crowd'), 'Done for all.'];
    const ran: string[] = [];
    const a = page(origin, replies).tool(approvedRemove(ran));
    const run = a.run('remove crowd');
    await until(run, 'approval_requested');
    const pages = Array.from({ length: 100 }, () => page(origin, replies));
    const attached = pages.map((p) => p.attach(run.runId));
    const cards = await Promise.all(attached.map((r) => until(r, 'approval_requested')));
    expect(cards.every((events) => events.filter((e) => e.type === 'approval_requested').length === 1)).toBe(true);
    expect((await pages[42]!.runs()).filter((info) => info.runId === run.runId)).toHaveLength(1);
    attached[99]!.approve('c1');
    const results = await Promise.all(attached.map((r) => r.result));
    expect(new Set(results.map((r) => r.text))).toEqual(new Set(['Done for all.']));
    expect(ran).toEqual(['crowd']);
  }, 60_000);
});

describe('a shared runner: what a run takes from its page', () => {
  it('a Standard Schema output is checked and parsed on the page that started the run, and a tracer there gets its spans', async () => {
    const exporter = new InMemorySpanExporter();
    const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).getTracer('shared-runner-test');
    const output = z.object({ said: z.string().transform((said) => said.toUpperCase()) });
    const a = page(crypto.randomUUID(), ['{"said":"hi"}']);
    const result = await a.run('say hi', { output, tracer }).result;
    expect(result.output).toEqual({ said: 'HI' });
    expect(exporter.getFinishedSpans().map((span) => span.name)).toEqual(expect.arrayContaining(['invoke_agent', 'chat']));
  });

  it('an answer that does not fit the page’s Standard Schema is asked again, and the next one is parsed there', async () => {
    const output = z.object({ said: z.string().transform((said) => said.toUpperCase()) });
    const a = page(crypto.randomUUID(), ['{"said":1}', '{"said":"hi"}'], { record: true });
    const result = await a.run('say hi', { output }).result;
    expect(result.output).toEqual({ said: 'HI' });
    expect((await a.cassette()).interactions).toHaveLength(2);
  });

  it('the page holding the run’s Standard Schema closes while it checks the answer: the run ends tab_gone, the model not asked again', async () => {
    const origin = crypto.randomUUID();
    const replies = ['{"said":"hi"}', '{"said":"again"}', '{"said":"and again"}'];
    let asked!: () => void;
    const checking = new Promise<void>((resolve) => (asked = resolve));
    // Its check never answers (until its page goes).
    const output = z.object({ said: z.string() }).refine(() => (asked(), new Promise<boolean>(() => {})));
    const holder = page(origin, replies, { record: true });
    const follower = page(origin, replies, { record: true });
    const run = holder.run('say hi', { output });
    await checking;
    const attached = follower.attach(run.runId);
    await until(attached, 'run_started');
    shut(holder);
    const events = await collect(attached);
    const error = await attached.result.catch((e: unknown) => e);
    expect(isAmbiError(error, 'tab_gone')).toBe(true);
    expect((error as Error).message).toMatch(/page that held this run's output schema went away/);
    expect(events.at(-1)).toMatchObject({ type: 'run_failed', error: { code: 'tab_gone' } });
    expect((await follower.cassette()).interactions).toHaveLength(1);
  });

  it('the page holding the run’s Standard Schema went before the answer came: the run ends tab_gone, the model not asked again', async () => {
    const origin = crypto.randomUUID();
    const replies: ScriptedReply[] = [{ toolCalls: [{ id: 'w1', name: 'wait', arguments: {} }] }, '{"said":"hi"}', '{"said":"again"}', '{"said":"and again"}'];
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let waiting!: () => void;
    const called = new Promise<void>((resolve) => (waiting = resolve));
    const wait = defineTool({
      name: 'wait',
      description: 'Wait for the page',
      parameters: { type: 'object', properties: {} },
      idempotent: true,
      call: async () => (waiting(), await released, 'waited'),
    });
    const holder = page(origin, replies, { record: true });
    const follower = page(origin, replies, { record: true }).tool(wait);
    await follower.runs();
    const run = holder.run('say hi', { output: z.object({ said: z.string() }) });
    await called;
    const attached = follower.attach(run.runId);
    await until(attached, 'tool_started');
    shut(holder);
    await settled();
    release();
    const events = await collect(attached);
    expect(isAmbiError(await attached.result.catch((e: unknown) => e), 'tab_gone')).toBe(true);
    expect(events.at(-1)).toMatchObject({ type: 'run_failed', error: { code: 'tab_gone', message: expect.stringMatching(/output schema went away/) } });
    // The call, then the answer no page could check: two requests, none after.
    expect((await follower.cassette()).interactions).toHaveLength(2);
  });
});

describe('a shared runner: page tools are those of the pages open now', () => {
  it('two pages may hold the same tool; another definition under a taken name is refused: duplicate_tool', async () => {
    const origin = crypto.randomUUID();
    const replies = ['ok', 'ok'];
    const a = page(origin, replies).tool(approvedRemove([]));
    await a.runs();
    const same = page(origin, replies).tool(approvedRemove([]));
    expect(await same.run('hi').result.then((r) => r.text)).toBe('ok');
    const other = page(origin, replies).tool(defineTool({ ...approvedRemove([]), description: 'Something else' }));
    expect(isAmbiError(await other.run('hi').result.catch((e: unknown) => e), 'duplicate_tool')).toBe(true);
  });

  it('a page that closes holding the only copy of a tool mid-call: the call ends tab_gone at once, not run again', async () => {
    const origin = crypto.randomUUID();
    const replies: ScriptedReply[] = [{ toolCalls: [{ id: 'm1', name: 'mark', arguments: {} }] }, 'Gone.'];
    const runnerPage = page(origin, replies);
    await runnerPage.runs();
    let calls = 0;
    let called!: () => void;
    const reached = new Promise<void>((resolve) => (called = resolve));
    const holder = page(origin, replies).tool(stuckTool('mark', () => (calls++, called())));
    await holder.runs();
    const run = runnerPage.run('mark the page');
    await reached;
    shut(holder);
    const result = await run.result;
    expect(result.toolResults).toMatchObject([{ id: 'm1', ok: false, error: { code: 'tab_gone' } }]);
    expect(result.text).toBe('Gone.');
    expect(calls).toBe(1);
  });

  it('a tool whose page closed is no longer offered, and a call of it ends tab_gone', async () => {
    const origin = crypto.randomUUID();
    const replies: ScriptedReply[] = [{ delayMs: 300, toolCalls: [{ id: 'm1', name: 'mark', arguments: {} }] }, 'Gone.'];
    const runnerPage = page(origin, replies, { record: true });
    await runnerPage.runs();
    const holder = page(origin, replies, { record: true }).tool(stuckTool('mark', () => {}));
    await holder.runs();
    shut(holder);
    await settled();
    const result = await runnerPage.run('mark the page').result;
    expect(result.toolResults).toMatchObject([{ id: 'm1', ok: false, error: { code: 'tab_gone' } }]);
    const { interactions } = await runnerPage.cassette();
    expect(interactions.every((interaction) => interaction.request.tools.every((tool) => tool.name !== 'mark'))).toBe(true);
  });

  it('a tool the tab’s next page did not register again ends tool_gone', async () => {
    const origin = crypto.randomUUID();
    const replies: ScriptedReply[] = [{ toolCalls: [{ id: 'm1', name: 'mark', arguments: {} }] }, 'Not there.'];
    const runnerPage = page(origin, replies);
    await runnerPage.runs();
    const before = page(origin, replies).tool(stuckTool('mark', () => {}));
    await before.runs();
    shut(before);
    await settled();
    const after = page(origin, replies);
    await after.runs();
    const result = await runnerPage.run('mark the page').result;
    expect(result.toolResults).toMatchObject([{ id: 'm1', ok: false, error: { code: 'tool_gone' } }]);
  });

  it('the tab’s next page registers the tool again: the call runs there', async () => {
    const origin = crypto.randomUUID();
    const replies: ScriptedReply[] = [{ toolCalls: [{ id: 'r1', name: 'remove', arguments: { note: 'n' } }] }, 'Done.'];
    const ranBefore: string[] = [];
    const ranAfter: string[] = [];
    const before = page(origin, replies).tool(approvedRemove(ranBefore));
    const run = before.run('remove n');
    await until(run, 'approval_requested');
    shut(before);
    const after = page(origin, replies).tool(approvedRemove(ranAfter));
    const attached = after.attach(run.runId);
    await collect(attached, (event) => event.type === 'approval_requested' && attached.approve('r1'));
    expect((await attached.result).toolResults).toMatchObject([{ id: 'r1', ok: true, output: 'removed n' }]);
    expect(ranBefore).toEqual([]);
    expect(ranAfter).toEqual(['n']);
  });
});

/** A SharedWorker of the runner, under a name of this test's own: the pages given `worker` below and `raw()` reach the same one. */
const ownShared = (name: string) => () => new SharedWorker(new URL('../../workers/runner.worker.ts', import.meta.url), { type: 'module', name });

describe('a shared runner under attack', () => {
  it('a port that does not say who it is (no identity, `__proto__`, oversized) is refused: invalid_option, nothing registered', async () => {
    const name = crypto.randomUUID();
    const legit = page(name, ['ok'], { worker: ownShared(name) });
    await legit.runs();
    const port = ownShared(name)().port;
    const api = Comlink.wrap<{ configure(config: unknown): Promise<void>; registerTools(d: unknown[]): Promise<unknown[]> }>(port);
    const engine = scriptedEngine(['x']);
    for (const pageIdentity of [undefined, { pageId: '__proto__', tabId: 'x'.repeat(201) }, JSON.parse('{"__proto__":{"pageId":"a","tabId":"b"}}'), 'tab']) {
      await expect(api.configure({ engine, page: pageIdentity })).rejects.toThrow(/says who it is/);
    }
    await expect(api.registerTools([{ name: 'remove', description: 'x', parameters: { type: 'object' } }])).rejects.toThrow(/configured/);
    port.close();
    expect(await legit.run('hi').result.then((r) => r.text)).toBe('ok');
  });

  it('a tab’s pages registering the same tool over and over (each then left): the tool runs once, on the newest page', async () => {
    const origin = crypto.randomUUID();
    const replies = [removeCall('r1', 'last'), 'Done.'];
    const asker = page(origin, replies);
    await asker.runs();
    const ran: string[][] = [];
    let newest!: WorkerRunner;
    for (let i = 0; i < 20; i++) {
      const mine: string[] = [];
      ran.push(mine);
      newest = page(origin, replies).tool(approvedRemove(mine));
      await newest.runs();
      if (i < 19) shut(newest);
    }
    await settled();
    const run = asker.run('remove last');
    await collect(run, (event) => event.type === 'approval_requested' && run.approve('r1'));
    expect((await run.result).toolResults).toMatchObject([{ id: 'r1', ok: true, output: 'removed last' }]);
    expect(ran.map((notes) => notes.length)).toEqual([...Array(19).fill(0), 1]);
  });

  it('a tab attached to another tab’s run may stop it: the run ends aborted for every page that follows it', async () => {
    const origin = crypto.randomUUID();
    const a = page(origin, [removeCall('c1', 'x'), 'never']).tool(approvedRemove([]));
    const b = page(origin, ['never']);
    const run = a.run('remove x');
    await until(run, 'approval_requested');
    const attached = b.attach(run.runId);
    await until(attached, 'approval_requested');
    attached.abort();
    expect(isAmbiError(await run.result.catch((e: unknown) => e), 'aborted')).toBe(true);
    expect(isAmbiError(await attached.result.catch((e: unknown) => e), 'aborted')).toBe(true);
    expect(await b.runs()).toEqual([]);
  });
});
