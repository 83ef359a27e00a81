// Issue 13 (runner), through the WorkerRunner in Chromium: ids, Stop, bad options and event readers hold across the boundary.
import { describe, expect, it } from 'vitest';
import { defineTool, isAmbiError, type RunEvent } from '../../src/index.js';
import { approvedRemove, noteSchema, stuckApproval } from '../support/tools.js';
import { collect } from '../support/run-events.js';
import { runnersClosedAfterEach } from '../support/worker-runners.js';

const { runnerWith } = runnersClosedAfterEach();

describe('WorkerRunner: call ids', () => {
  it('approving the second of two calls that share an id runs exactly that call', async () => {
    const ran: string[] = [];
    const remove = approvedRemove(ran);
    const runner = runnerWith([
      {
        toolCalls: [
          { id: 'x', name: 'remove', arguments: { note: 'first' } },
          { id: 'x', name: 'remove', arguments: { note: 'second' } },
        ],
      },
      'done',
    ]).tool(remove);
    const run = runner.run('go');
    const cards: ToolCallCard[] = [];
    await collect(run, (event) => {
      if (event.type !== 'approval_requested') return;
      cards.push(event.call);
      if (cards.length < 2) return;
      run.approve(cards[1]!.id);
      run.deny(cards[0]!.id);
    });
    const result = await run.result;
    expect(ran).toEqual(['second']);
    expect(cards[0]!.id).toBe('x');
    expect(cards[1]!.id).not.toBe('x');
    expect(result.toolResults.map((r) => [r.id, r.ok])).toEqual([
      [cards[0]!.id, false],
      [cards[1]!.id, true],
    ]);
  });

  it('runs only maxCallsPerReply calls of a reply; the rest get too_many_calls', async () => {
    let sent = 0;
    const send = defineTool({ name: 'send', description: 'x', parameters: noteSchema, idempotent: false, call: () => ++sent });
    const runner = runnerWith([{ toolCalls: [1, 2, 3].map((n) => ({ name: 'send', arguments: { note: `${n}` } })) }, 'done']).tool(send);
    const result = await runner.run('go', { maxCallsPerReply: 2 }).result;
    expect(sent).toBe(2);
    expect(result.toolResults.map((r) => r.ok || r.error.code)).toEqual([true, true, 'too_many_calls']);
  });
});

type ToolCallCard = Extract<RunEvent, { type: 'approval_requested' }>['call'];

describe('WorkerRunner: Stop', () => {
  it('stops a run whose page tool has an approval rule that never settles, and frees its conversation', async () => {
    const { stuck, ran } = stuckApproval();
    const runner = runnerWith([{ toolCalls: [{ name: 'stuck', arguments: {} }] }, 'free again']).tool(stuck);
    const run = runner.run('go', { conversation: 'stuck-chat' });
    const events = await collect(run, (event) => event.type === 'tool_call' && run.abort('stop pressed'));
    const error = await run.result.catch((e: unknown) => e);
    expect(isAmbiError(error, 'aborted')).toBe(true);
    expect(events.at(-1)).toMatchObject({ type: 'run_failed', error: { code: 'aborted' } });
    expect(ran.count).toBe(0);
    // The Web Lock was let go: a run that refuses to wait for it gets it.
    const next = await runner.run('again', { conversation: 'stuck-chat', lock: 'fail' }).result;
    expect(next.text).toBe('free again');
  });
});

describe('WorkerRunner: options', () => {
  it("refuses conversation '' with a coded error, at once", () => {
    const runner = runnerWith(['hi']);
    let error: unknown;
    try {
      runner.run('go', { conversation: '' });
    } catch (e) {
      error = e;
    }
    expect(isAmbiError(error, 'invalid_option')).toBe(true);
  });
});

describe('WorkerRunner: run.events', () => {
  it('refuses a second reader while one reads, and the first gets every event', async () => {
    const run = runnerWith(['hello']).run('go');
    const first = collect(run);
    await Promise.resolve();
    const error = await collect(run).catch((e: unknown) => e);
    expect(isAmbiError(error, 'events_busy')).toBe(true);
    expect((await first).at(-1)?.type).toBe('run_finished');
  });

  it('keeps the rest of a batch for the next reader when a reader breaks out early', async () => {
    const look = defineTool({ name: 'look', description: 'x', parameters: noteSchema, idempotent: true, call: () => 'seen' });
    const run = runnerWith([{ toolCalls: [{ name: 'look', arguments: {} }] }, 'Done.'])
      .tool(look)
      .run('go');
    await run.result; // every event up to run_finished is queued now, unread
    const firstReader: RunEvent[] = [];
    for await (const event of run.events) {
      firstReader.push(event);
      if (firstReader.length === 2) break;
    }
    const rest = await collect(run);
    expect(firstReader.map((e) => e.type)).toEqual(['run_started', 'tool_call']);
    // The page tool starts early and answers from the page: the reply's end (its usage) comes first.
    expect([...firstReader, ...rest].map((e) => e.type)).toEqual([
      'run_started',
      'tool_call',
      'tool_started',
      'usage',
      'tool_finished',
      'iteration_finished',
      'text_delta',
      'usage',
      'iteration_finished',
      'run_finished',
    ]);
  });
});
