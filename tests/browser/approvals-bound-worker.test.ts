// Through the WorkerRunner on real IndexedDB: a decision decides exactly its call, and an approval
// whose edited arguments cannot cross to the runner ends that call at once instead of being lost.
import { afterEach, describe, expect, it } from 'vitest';
import { createWorkerRunner, defineTool, type RunEvent, type ScriptedReply, scriptedEngine, type WorkerRunner } from '../../src/index.js';
import { freshDatabases } from '../support/fresh-databases.js';
import { collect } from '../support/run-events.js';
import { openRunners } from '../support/worker-runners.js';

const runners = openRunners();
const databases = freshDatabases('bound');
afterEach(async () => {
  runners.closeAll();
  await databases.deleteAll();
});

const ofType = <T extends RunEvent['type']>(events: RunEvent[], type: T) => events.filter((e): e is Extract<RunEvent, { type: T }> => e.type === type);

/** A page tool that asks first and records each call; `hang` leaves its calls running. */
function asking(name: string, ran: string[], hang = false) {
  return defineTool({
    name,
    description: `${name} (asks first)`,
    parameters: { type: 'object', properties: { note: { type: 'string' } } },
    idempotent: false,
    needsApproval: true,
    call: ({ note }) => {
      ran.push(`${name}:${note ?? ''}`);
      return hang ? new Promise<string>(() => {}) : 'done';
    },
  });
}

function page(database: string, replies: ScriptedReply[], ran: string[], hang = false): WorkerRunner {
  return runners.keep(
    createWorkerRunner({ engine: scriptedEngine(replies), database })
      .tool(asking('share_note', ran, hang))
      .tool(asking('delete_everything', ran)),
  );
}

const call = (id: string, name: string, note: string): ScriptedReply => ({ toolCalls: [{ id, name, arguments: { note } }] });

describe('approvals bound to their call, through the WorkerRunner', () => {
  it('the page closed while an approved call ran: a later call reusing its id is asked, never approved by that decision', async () => {
    const database = databases.fresh();
    const ran: string[] = [];
    const first = page(database, [call('call_0', 'share_note', 'groceries')], ran, true);
    const run = first.run('share my note', { conversation: 'notes' });
    for await (const event of run.events) {
      if (event.type === 'approval_requested') run.approve(event.call.id);
      // The tab closes while the approved call runs on the page.
      if (event.type === 'tool_started') first.close();
    }
    await run.result.catch(() => undefined);
    expect(ran).toEqual(['share_note:groceries']);

    const second = page(database, [call('call_0', 'delete_everything', 'all'), 'Not deleted.'], ran);
    const next = second.run('now delete everything', { conversation: 'notes' });
    const events = await collect(next, (event) => event.type === 'approval_requested' && next.deny(event.call.id));
    await next.result;
    const asked = ofType(events, 'approval_requested');
    expect(asked.map((e) => e.call.name)).toEqual(['delete_everything']);
    expect(asked[0]!.call.id).not.toBe('call_0');
    expect(ran).toEqual(['share_note:groceries']);
  });

  it('approve(id, { arguments }) with arguments that cannot be cloned ends the call invalid_arguments at once, and the run goes on', async () => {
    const ran: string[] = [];
    const runner = page(databases.fresh(), [call('c1', 'share_note', 'a'), 'Could not share it.'], ran);
    const run = runner.run('share', { conversation: 'notes' });
    const events = await collect(
      run,
      (event) => event.type === 'approval_requested' && run.approve(event.call.id, { arguments: { note: 'x', then: () => 1 } }),
    );
    const result = await run.result;
    expect(result.toolResults).toMatchObject([
      { id: 'c1', ok: false, attempts: 0, error: { code: 'invalid_arguments', message: expect.stringContaining('not plain data') } },
    ]);
    expect(result.text).toBe('Could not share it.');
    expect(ofType(events, 'approval_resolved')).toMatchObject([{ callId: 'c1', approved: true }]);
    expect(ran).toEqual([]);
  });
});
