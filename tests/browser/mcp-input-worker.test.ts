// A server's questions (MCP 2026-07-28 `input_required`) through the WorkerRunner, in Chromium: the
// connection and the run live in the runner worker, the person answers on the page; answered,
// refused, and answered after a reload on real IndexedDB.
import { afterEach, describe, expect, inject, it } from 'vitest';
import { createWorkerRunner, isAmbiError, mcpServer, type Run, type RunEvent, scriptedEngine, type ScriptedReply, type WorkerRunner } from '../../src/index.js';
import { freshDatabases } from '../support/fresh-databases.js';
import { openRunners } from '../support/worker-runners.js';

const url = inject('mcpInputUrl');
const runners = openRunners();
const databases = freshDatabases('mcp-input');
afterEach(async () => {
  runners.closeAll();
  await databases.deleteAll();
});

type Asked = Extract<RunEvent, { type: 'input_requested' }>;
const config = mcpServer({ url, policy: { book: { needsApproval: false } } });
const book = (to: string, id?: string): ScriptedReply => ({ toolCalls: [{ ...(id ? { id } : {}), name: 'book', arguments: { to } }] });
/** A destination of this test alone: the server is shared by the file's tests. */
const somewhere = () => `City-${crypto.randomUUID().slice(0, 8)}`;

async function connected(replies: ScriptedReply[], database?: string): Promise<WorkerRunner> {
  const runner = runners.keep(createWorkerRunner({ engine: scriptedEngine(replies), ...(database ? { database } : {}) }));
  await runner.mcp(config);
  return runner;
}

/** Read the run's events, answering each question with `answer` (and approving what asks, as a person would). */
async function answering(run: Run, answer: (event: Asked) => Promise<void> | void): Promise<RunEvent[]> {
  const events: RunEvent[] = [];
  for await (const event of run.events) {
    events.push(event);
    if (event.type === 'approval_requested') run.approve(event.call.id);
    if (event.type === 'input_requested') await answer(event);
  }
  return events;
}

/** The bookings the server made, as its `bookings` tool lists them. */
async function bookings(): Promise<string[]> {
  const runner = await connected([{ toolCalls: [{ name: 'bookings', arguments: {} }] }, 'listed']);
  const result = await runner.run('list').result;
  return JSON.parse(String(result.toolResults[0]!.ok && result.toolResults[0]!.output)) as string[];
}

describe('mcp input_required through the WorkerRunner', () => {
  it('the question reaches the page; respond() checks the answers in the worker (a coded refusal crosses back) and the call goes on', async () => {
    const to = somewhere();
    const runner = await connected([book(to), 'Booked.']);
    const run = runner.run('book me a flight');
    const refusals: unknown[] = [];
    const events = await answering(run, async (event) => {
      await run.respond(event.callId, { seat: 'roof', bags: 1 }).catch((error: unknown) => refusals.push(error));
      await run.respond(event.callId, { seat: 'window', bags: 2 });
    });
    expect(events.find((e) => e.type === 'input_requested')).toMatchObject({ name: 'book', requests: [{ key: 'seat', message: `Which seat to ${to}?` }] });
    expect(refusals).toHaveLength(1);
    expect(isAmbiError(refusals[0], 'invalid_input')).toBe(true);
    expect((await run.result).toolResults[0]).toMatchObject({ ok: true, output: `Booked ${to}: {"seat":"window","bags":2}` });
  });

  it('a refusal reaches the server as declined', async () => {
    const to = somewhere();
    const runner = await connected([book(to), 'Not booked.']);
    const run = runner.run('book me a flight');
    await answering(run, (event) => run.respond(event.callId, null));
    expect((await run.result).toolResults[0]).toMatchObject({ ok: true, output: 'Not booked: the person answered decline' });
    expect((await bookings()).some((entry) => entry.startsWith(to))).toBe(false);
  });

  it('__proto__ as a field crosses to the worker and the server as the field it is', async () => {
    const runner = await connected([{ toolCalls: [{ name: 'proto', arguments: {} }] }, 'ok']);
    const run = runner.run('go');
    await answering(run, (event) => run.respond(event.callId, JSON.parse('{"__proto__":"named"}')));
    expect((await run.result).toolResults[0]).toMatchObject({ ok: true, output: '{"kind":"elicit","action":"accept","content":{"__proto__":"named"}}' });
  });

  it('closed while the question waits, a new runner on the same database resumes, asks it again, and the server books once', async () => {
    const database = databases.fresh();
    const to = somewhere();
    const first = await connected([book(to, 'call_book')], database);
    const run = first.run('book me a flight', { conversation: 'trip' });
    for await (const event of run.events) {
      if (event.type === 'approval_requested') run.approve(event.call.id);
      if (event.type === 'input_requested') first.close();
    }
    expect(isAmbiError(await run.result.catch((e: unknown) => e), 'closed')).toBe(true);

    const second = await connected(['Booked after the reload.'], database);
    const resumed = second.resume('trip');
    const events = await answering(resumed, (event) => resumed.respond(event.callId, { seat: 'aisle', bags: 0 }));
    expect(events.find((e) => e.type === 'input_requested')).toMatchObject({
      callId: 'call_book',
      requests: [{ key: 'seat', message: `Which seat to ${to}?` }],
    });
    expect((await resumed.result).toolResults[0]).toMatchObject({ id: 'call_book', ok: true, output: `Booked ${to}: {"seat":"aisle","bags":0}` });
    expect((await bookings()).filter((entry) => entry.startsWith(to))).toHaveLength(1);
  });
});
