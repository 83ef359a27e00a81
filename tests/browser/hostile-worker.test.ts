// The worker runtime under hostile tools, tool workers and callers (issue 13): every run ends, with a code.
import { openDB, type IDBPDatabase } from 'idb';
import { afterEach, describe, expect, it } from 'vitest';
import { defineTool, isAmbiError, type Run, type RunEvent } from '../../src/index.js';
import { freshDatabases } from '../support/fresh-databases.js';
import { collect } from '../support/run-events.js';
import { untilAborted } from '../support/tools.js';
import { callOf, openRunners } from '../support/worker-runners.js';

const runners = openRunners();
const { runnerWith } = runners;
const handOpened: IDBPDatabase[] = [];
const databases = freshDatabases('hostile-worker');
afterEach(async () => {
  runners.closeAll();
  handOpened.splice(0).forEach((db) => db.close());
  await databases.deleteAll();
});

/** A tool-worker factory that counts the workers it started and the ones terminated. */
function countedWorkers(url: URL) {
  const counts = { started: 0, terminated: 0 };
  const factory = () => {
    counts.started++;
    const worker = new Worker(url, { type: 'module' });
    const terminate = worker.terminate.bind(worker);
    worker.terminate = () => {
      counts.terminated++;
      terminate();
    };
    return worker;
  };
  return { counts, factory };
}

const hostileTools = () => countedWorkers(new URL('./fixtures/hostile-tools.worker.ts', import.meta.url));

/** Neither structured-cloneable (a function) nor convertible to text (no prototype, so no toString). */
const unclonable = () => Object.assign(Object.create(null) as object, { run() {} });

/** Uncaught errors and unhandled rejections on the page while `body` runs. */
async function pageErrors(body: () => Promise<void>): Promise<unknown[]> {
  const seen: unknown[] = [];
  const onError = (event: ErrorEvent) => seen.push(event.error ?? event.message);
  const onRejection = (event: PromiseRejectionEvent) => seen.push(event.reason);
  window.addEventListener('error', onError);
  window.addEventListener('unhandledrejection', onRejection);
  try {
    await body();
    await new Promise((r) => setTimeout(r, 50));
  } finally {
    window.removeEventListener('error', onError);
    window.removeEventListener('unhandledrejection', onRejection);
  }
  return seen;
}

describe('WorkerRunner under hostile tool workers', () => {
  it('stops a run whose tool-worker approval rule spins: the run ends aborted, the worker is terminated after the grace and replaced, the conversation is free', async () => {
    const { counts, factory } = hostileTools();
    const runner = runnerWith([callOf('guarded', {}, 'g'), callOf('echo', { text: 'fresh' }, 'e'), 'done']);
    await runner.workerTools(factory, { graceMs: 20 });
    const run = runner.run('go', { conversation: 'spin-rule' });
    // The rule is asked once the call is read; give the question time to reach the spinning worker.
    await collect(run, (event) => event.type === 'tool_call' && setTimeout(() => run.abort('stop pressed'), 100));
    const error = await run.result.catch((e: unknown) => e);
    expect(isAmbiError(error, 'aborted')).toBe(true);
    await expect.poll(() => counts.terminated).toBe(1);
    // The lock was let go (`fail` would reject with conversation_busy), and the tool worker answers from a fresh worker.
    const next = await runner.run('again', { conversation: 'spin-rule', lock: 'fail' }).result;
    expect(next.toolResults).toMatchObject([{ id: 'e', ok: true, output: 'fresh' }]);
    expect(counts.started).toBe(2);
  });

  it('ends a tool-worker tool that throws a value neither cloneable nor stringifiable as crashed at once, not retried', async () => {
    const { factory } = hostileTools();
    const runner = runnerWith([callOf('throws_unclonable', {}, 'x'), 'done']);
    await runner.workerTools(factory);
    const result = await runner.run('go').result;
    expect(result.toolResults).toMatchObject([{ id: 'x', ok: false, error: { code: 'crashed' }, attempts: 1 }]);
    // What was thrown is described, not lost behind the reply that could not be sent.
    expect(result.toolResults[0]!.ok ? '' : result.toolResults[0]!.error.message).toContain(
      '[object Object], which can be neither cloned nor converted to text',
    );
  });

  it('aborts a run in a tool-worker call with a reason neither cloneable nor stringifiable: the run ends aborted', async () => {
    const { counts, factory } = hostileTools();
    const runner = runnerWith([callOf('slow', { ms: 60_000 }, 's')]);
    await runner.workerTools(factory, { graceMs: 20 });
    const run = runner.run('go');
    const events = await collect(run, (event) => event.type === 'tool_started' && run.abort(unclonable()));
    expect(isAmbiError(await run.result.catch((e: unknown) => e), 'aborted')).toBe(true);
    expect(events.at(-1)).toMatchObject({ type: 'run_failed', error: { code: 'aborted' } });
    // `slow` ignores its signal: the abort reached the tool worker, which was terminated after the grace.
    await expect.poll(() => counts.terminated).toBe(1);
  });

  it('ends a call whose tool worker closes itself with worker_crashed, and serves the next call from a fresh worker', async () => {
    const { counts, factory } = hostileTools();
    const runner = runnerWith([callOf('closes_itself', {}, 'c'), callOf('echo', { text: 'after' }, 'e'), 'done']);
    await runner.workerTools(factory);
    const result = await runner.run('go').result;
    expect(result.toolResults.map((r) => [r.id, r.ok ? r.output : r.error.code])).toEqual([
      ['c', 'worker_crashed'],
      ['e', 'after'],
    ]);
    expect(counts.started).toBe(2);
  });
});

describe('WorkerRunner: starting a tool worker is bounded', () => {
  for (const [what, file] of [
    ['never calls exposeTools', 'silent'],
    ['spins as it loads', 'spin-at-load'],
  ] as const) {
    it(`rejects workerTools with worker_start_timeout and terminates a worker that ${what}`, async () => {
      const { counts, factory } = countedWorkers(new URL(`./fixtures/${file}.worker.ts`, import.meta.url));
      const runner = runnerWith(['unused']);
      const error = await runner.workerTools(factory, { startTimeoutMs: 300 }).catch((e: unknown) => e);
      expect(isAmbiError(error, 'worker_start_timeout')).toBe(true);
      expect((error as Error).message).toContain('300 ms');
      expect(counts.terminated).toBe(1);
    });
  }
});

describe('WorkerRunner: tool-worker timings are checked', () => {
  for (const bad of [Number.POSITIVE_INFINITY, Number.NaN, -1]) {
    it(`refuses graceMs ${bad} with invalid_option, starting no worker`, async () => {
      const { counts, factory } = hostileTools();
      const error = await runnerWith(['unused'])
        .workerTools(factory, { graceMs: bad })
        .catch((e: unknown) => e);
      expect(isAmbiError(error, 'invalid_option')).toBe(true);
      expect((error as Error).message).toContain('graceMs');
      expect(counts.started).toBe(0);
    });
  }

  for (const bad of [0, Number.POSITIVE_INFINITY, Number.NaN, -5]) {
    it(`refuses startTimeoutMs ${bad} with invalid_option`, async () => {
      const { counts, factory } = hostileTools();
      const error = await runnerWith(['unused'])
        .workerTools(factory, { startTimeoutMs: bad })
        .catch((e: unknown) => e);
      expect(isAmbiError(error, 'invalid_option')).toBe(true);
      expect(counts.started).toBe(0);
    });
  }

  it("a graceMs past setTimeout's range (2**31) does not terminate the worker at once: the other call in it finishes", async () => {
    const { counts, factory } = hostileTools();
    const runner = runnerWith([
      {
        toolCalls: [
          { id: 'late', name: 'stubborn', arguments: {} },
          { id: 'slow', name: 'slow', arguments: { ms: 300 } },
        ],
      },
      'done',
    ]);
    await runner.workerTools(factory, { graceMs: 2 ** 31 });
    const result = await runner.run('go').result;
    expect(result.toolResults.map((r) => [r.id, r.ok ? r.output : r.error.code])).toEqual([
      ['late', 'timeout'],
      ['slow', 'slow done'],
    ]);
    expect(counts.started).toBe(1);
  });
});

describe('WorkerRunner under hostile callers and page tools', () => {
  it('ends a page tool that throws a value neither cloneable nor stringifiable as crashed at once, with no page error', async () => {
    const weird = defineTool({
      name: 'weird',
      description: 'x',
      parameters: { type: 'object' },
      idempotent: true,
      call: () => {
        throw unclonable();
      },
    });
    const runner = runnerWith([callOf('weird', {}, 'w'), 'done']).tool(weird);
    let result: Awaited<Run['result']> | undefined;
    const errors = await pageErrors(async () => {
      result = await runner.run('go').result;
    });
    expect(errors).toEqual([]);
    expect(result?.toolResults).toMatchObject([{ id: 'w', ok: false, error: { code: 'crashed' }, attempts: 1 }]);
  });

  it('aborts a run with a reason neither cloneable nor stringifiable: the run ends aborted and the page tool is told', async () => {
    const seen: unknown[] = [];
    const hang = untilAborted('hang', (signal) => seen.push(signal.aborted));
    const run = runnerWith([callOf('hang')])
      .tool(hang)
      .run('go');
    const events = await collect(run, (event) => event.type === 'tool_started' && run.abort(unclonable()));
    expect(isAmbiError(await run.result.catch((e: unknown) => e), 'aborted')).toBe(true);
    expect(events.at(-1)).toMatchObject({ type: 'run_failed', error: { code: 'aborted' } });
    expect(seen).toEqual([true]);
  });

  it('refuses a second run with the runId of a run still going (duplicate_run); the first keeps its events and settles', async () => {
    const remove = defineTool({
      name: 'remove',
      description: 'x',
      parameters: { type: 'object' },
      idempotent: false,
      needsApproval: true,
      call: () => 'removed',
    });
    const runner = runnerWith([callOf('remove', {}, 'r'), 'first done', 'third done']).tool(remove);
    const first = runner.run('first', { runId: 'same' });
    let secondEvents: RunEvent[] = [];
    const firstEvents = collect(first, (event) => {
      if (event.type !== 'approval_requested') return;
      const second = runner.run('second', { runId: 'same' });
      void collect(second).then((events) => {
        secondEvents = events;
        first.approve(event.call.id);
      });
    });
    expect((await first.result).text).toBe('first done');
    expect((await firstEvents).filter((e) => e.type === 'run_started')).toEqual([{ type: 'run_started', runId: 'same', input: 'first' }]);
    expect(secondEvents).toMatchObject([{ type: 'run_failed', error: { code: 'duplicate_run' } }]);
    // Once the first has ended, its id is free again.
    expect((await runner.run('third', { runId: 'same' }).result).text).toBe('third done');
  });
});

describe('WorkerRunner: a failed start-up is retried', () => {
  it('after storage_blocked at start-up, the next run configures the runner again and runs with its tools', async () => {
    const database = databases.fresh();
    // An old connection with no versionchange handler: it blocks the worker's upgrade until it closes.
    const old = await openDB(database, 1, { upgrade: (db) => void db.createObjectStore('snapshots', { keyPath: 'id' }) });
    handOpened.push(old);
    const echo = defineTool({ name: 'page_echo', description: 'x', parameters: { type: 'object' }, idempotent: true, call: () => 'echoed' });
    const runner = runnerWith([callOf('page_echo', {}, 'p'), 'done'], { database }).tool(echo);
    const first = await runner.run('first', { conversation: 'c' }).result.catch((e: unknown) => e);
    expect(isAmbiError(first, 'storage_blocked')).toBe(true);
    // Tried again while the old connection still holds the database: blocked again, not a run that never ends.
    const again = await runner.run('again', { conversation: 'c' }).result.catch((e: unknown) => e);
    expect(isAmbiError(again, 'storage_blocked')).toBe(true);
    old.close();
    const second = await runner.run('second', { conversation: 'c' }).result;
    expect(second.toolResults).toMatchObject([{ id: 'p', ok: true, output: 'echoed' }]);
    expect(second.text).toBe('done');
  });

  it('workerTools during a failed start-up rejects with its error and adds none of its tools; after it, they can be added', async () => {
    const database = databases.fresh();
    const old = await openDB(database, 1, { upgrade: (db) => void db.createObjectStore('snapshots', { keyPath: 'id' }) });
    handOpened.push(old);
    const { counts, factory } = hostileTools();
    const runner = runnerWith([callOf('echo', { text: 'from the tool worker' }, 'e'), 'done'], { database });
    const error = await runner.workerTools(factory).catch((e: unknown) => e);
    expect(isAmbiError(error, 'storage_blocked')).toBe(true);
    await expect.poll(() => counts.terminated).toBe(1);
    old.close();
    expect(await runner.workerTools(factory)).toContain('echo');
    const result = await runner.run('go', { conversation: 'c' }).result;
    expect(result.toolResults).toMatchObject([{ id: 'e', ok: true, output: 'from the tool worker' }]);
  });
});
