import { afterEach, describe, expect, it } from 'vitest';
import { createWorkerRunner, defineTool, IndexedDbConversationStore, IndexedDbSnapshotStore, scriptedEngine, type RunEvent } from '../../src/index.js';
import { freshDatabases } from '../support/fresh-databases.js';
import { openRunners } from '../support/worker-runners.js';

const runners = openRunners();
const databases = freshDatabases('durable');
afterEach(async () => {
  runners.closeAll();
  await databases.deleteAll();
});
const freshDatabase = databases.fresh;

describe('durable state through the worker runner', () => {
  it('resumes a conversation after the runner worker dies mid-call: the cut-off call is not run again', async () => {
    const database = freshDatabase();
    let charges = 0;
    const charge = defineTool({
      name: 'charge',
      description: 'Charge the card',
      parameters: { type: 'object' },
      idempotent: false,
      call: () => {
        charges++;
        return new Promise(() => {});
      },
    });

    // First "tab": the charge starts, then the worker is terminated before it answers (a reload).
    const first = createWorkerRunner({ engine: scriptedEngine([{ toolCalls: [{ id: 'pay', name: 'charge', arguments: {} }] }]), database }).tool(charge);
    const run = first.run('pay my bill', { conversation: 'bill' });
    for await (const event of run.events) if (event.type === 'tool_started') first.close();
    await run.result.catch(() => undefined);
    expect(charges).toBe(1);

    // Second "tab": same database, same conversation.
    const second = createWorkerRunner({ engine: scriptedEngine(['I could not confirm the payment; please check your bank.']), database }).tool(charge);
    runners.keep(second);
    const result = await second.run('did it go through?', { conversation: 'bill' }).result;
    expect(charges).toBe(1);
    const repaired = result.messages.find((m) => m.role === 'tool');
    expect(repaired && JSON.parse(repaired.content).error.code).toBe('outcome_unknown');
    const stored = await (await IndexedDbConversationStore.open(database)).load('bill');
    expect(stored.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'user', 'assistant']);
  });

  it('writes leaf snapshots to IndexedDB from the worker, and tags leaf events with the leaf id', async () => {
    const database = freshDatabase();
    const runner = createWorkerRunner({
      engine: scriptedEngine([
        { toolCalls: [{ id: 'delegate', name: 'spawn_leaf', arguments: { task: 'Summarise the notes' } }] },
        'Notes summarised by the leaf.',
        'Done: the leaf summarised them.',
      ]),
      database,
      leaf: { maxDepth: 1 },
    });
    runners.keep(runner);
    const run = runner.run('Summarise my notes');
    const events: RunEvent[] = [];
    for await (const event of run.events) events.push(event);
    const result = await run.result;
    expect(result.toolResults).toMatchObject([{ id: 'delegate', ok: true, output: 'Notes summarised by the leaf.' }]);
    const snapshots = await (await IndexedDbSnapshotStore.open(database)).list();
    expect(snapshots).toHaveLength(1);
    expect(snapshots[0]).toMatchObject({
      parentCallId: 'delegate',
      parentRunId: result.runId,
      task: 'Summarise the notes',
      status: 'done',
      result: 'Notes summarised by the leaf.',
    });
    expect(events.filter((e) => e.leafId === snapshots[0]!.id).map((e) => e.type)).toContain('run_finished');
  });

  it('delivers events that follow a leaf, such as an approval request, while the run is still going', async () => {
    let removed = 0;
    const remove = defineTool({
      name: 'remove',
      description: 'x',
      parameters: { type: 'object' },
      idempotent: false,
      needsApproval: true,
      call: () => ++removed,
    });
    const runner = createWorkerRunner({
      engine: scriptedEngine([
        { toolCalls: [{ name: 'spawn_leaf', arguments: { task: 'check' } }] },
        'checked',
        { toolCalls: [{ id: 'rm', name: 'remove', arguments: {} }] },
        'removed',
      ]),
      leaf: {},
    }).tool(remove);
    runners.keep(runner);
    const run = runner.run('go');
    const leafFinished: unknown[] = [];
    for await (const event of run.events) {
      if (event.type === 'run_finished' && event.leafId) leafFinished.push(event.result.text);
      if (event.type === 'approval_requested') run.approve(event.call.id);
    }
    expect((await run.result).text).toBe('removed');
    expect(removed).toBe(1);
    expect(leafFinished).toEqual(['checked']);
  });
});
