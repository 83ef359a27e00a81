// Leaf delegation's specification: run in Node (memory store) and Chromium (IndexedDB store).
import { describe, expect, it } from 'vitest';
import {
  Agent,
  ChatRunner,
  defineTool,
  isAmbiError,
  scriptedEngine,
  type LeafSnapshot,
  type RunEvent,
  type SnapshotStore,
  type ToolResult,
} from '../../src/index.js';

/** Where a realm keeps snapshots: a fresh store, and one whose writes the storage refuses. */
export interface LeafStores {
  fresh(): Promise<SnapshotStore>;
  refusing(): Promise<{ store: SnapshotStore; code: string }>;
}

/** Wraps a real store and keeps a copy of every write, to check what was written when. */
class RecordingStore implements SnapshotStore {
  readonly writes: LeafSnapshot[] = [];
  constructor(readonly inner: SnapshotStore) {}
  async put(snapshot: LeafSnapshot) {
    await this.inner.put(snapshot);
    this.writes.push(structuredClone(snapshot));
  }
  get(id: string) {
    return this.inner.get(id);
  }
  list() {
    return this.inner.list();
  }
  delete(id: string) {
    return this.inner.delete(id);
  }
}

const lookup = defineTool({
  name: 'lookup',
  description: 'Look up a fact',
  parameters: { type: 'object', properties: { q: { type: 'string' } } },
  idempotent: true,
  call: ({ q }) => `fact about ${q}`,
});
const send = defineTool({ name: 'send', description: 'Send mail', parameters: { type: 'object' }, idempotent: false, call: () => 'sent' });

/** A `delete_note` tool that needs approval; `deletes.count` says how many times it ran. */
function deletingTool() {
  const deletes = { count: 0 };
  const remove = defineTool({
    name: 'delete_note',
    description: 'x',
    parameters: { type: 'object' },
    idempotent: false,
    needsApproval: true,
    call: () => ++deletes.count,
  });
  return { remove, deletes };
}

/** A parent that spawns a leaf whose call `del` is `delete_note`; the leaf then says `leafAnswer`, the parent `parentAnswer`. */
const leafDeleting = (leafAnswer: string, parentAnswer: string) =>
  scriptedEngine([
    { toolCalls: [{ name: 'spawn_leaf', arguments: { task: 'delete it' } }] },
    { toolCalls: [{ id: 'del', name: 'delete_note', arguments: {} }] }, // the leaf's call
    leafAnswer,
    parentAnswer,
  ]);

export function describeLeaf(realm: string, stores: LeafStores): void {
  describe(`spawn_leaf (${realm})`, () => {
    it('runs a leaf on a snapshot of the parent conversation and returns its answer as the tool output', async () => {
      const store = new RecordingStore(await stores.fresh());
      const engine = scriptedEngine([
        { text: 'Delegating.', toolCalls: [{ id: 'leaf1', name: 'spawn_leaf', arguments: { task: 'Find the fact about tides' } }] },
        { toolCalls: [{ name: 'lookup', arguments: { q: 'tides' } }] }, // the leaf's first turn
        'Tides follow the moon.', // the leaf's answer
        'The leaf says tides follow the moon.', // the parent's answer
      ]);
      const agent = (await Agent.make(engine, { preamble: 'You are the parent.' })).tool(lookup).tool(send).leaf({ store });
      const run = new ChatRunner().run(agent, 'Explain tides');
      const events: RunEvent[] = [];
      for await (const event of run.events) events.push(event);
      const result = await run.result;

      expect(result.text).toBe('The leaf says tides follow the moon.');
      expect(result.toolResults).toMatchObject([{ id: 'leaf1', name: 'spawn_leaf', ok: true, output: 'Tides follow the moon.' }]);
      const [first, last] = [store.writes[0]!, store.writes.at(-1)!];
      expect(first.status).toBe('running');
      expect(first.parentCallId).toBe('leaf1');
      expect(first.parentRunId).toBe(result.runId);
      // The snapshot stops before the reply that called spawn_leaf; the task is the leaf's user message.
      expect(first.messages).toEqual([
        { role: 'system', content: 'You are the parent.' },
        { role: 'user', content: 'Explain tides' },
        { role: 'user', content: 'Find the fact about tides' },
      ]);
      expect(first.tools).toEqual(['lookup', 'send']);
      expect(last).toMatchObject({ id: first.id, status: 'done', result: 'Tides follow the moon.' });
      expect(last.messages.map((m) => m.role)).toEqual(['system', 'user', 'user', 'assistant', 'tool', 'assistant']);
      const leafEvents = events.filter((e) => e.leafId === first.id);
      expect(leafEvents.map((e) => e.type)).toContain('tool_finished');
      expect(leafEvents.find((e) => e.type === 'tool_finished')).toMatchObject({ result: { name: 'lookup', output: 'fact about tides' } });
    });

    it('gives a leaf no spawn_leaf by default (maxDepth 1)', async () => {
      const store = new RecordingStore(await stores.fresh());
      const engine = scriptedEngine([
        { toolCalls: [{ name: 'spawn_leaf', arguments: { task: 'try to delegate' } }] },
        { toolCalls: [{ id: 'inner', name: 'spawn_leaf', arguments: { task: 'deeper' } }] },
        'Could not delegate.',
        'done',
      ]);
      const agent = (await Agent.make(engine)).tool(lookup).leaf({ store });
      const run = new ChatRunner().run(agent, 'go');
      const finished: ToolResult[] = [];
      for await (const event of run.events) if (event.type === 'tool_finished') finished.push(event.result);
      await run.result;
      expect(finished.find((r) => r.id === 'inner')).toMatchObject({ ok: false, error: { code: 'unknown_tool' } });
      expect(store.writes[0]!.tools).toEqual(['lookup']);
    });

    it('lets a leaf delegate one level deeper when maxDepth is 2', async () => {
      const store = new RecordingStore(await stores.fresh());
      const engine = scriptedEngine([
        { toolCalls: [{ name: 'spawn_leaf', arguments: { task: 'level one' } }] },
        { toolCalls: [{ name: 'spawn_leaf', arguments: { task: 'level two' } }] },
        'from level two',
        'from level one',
        'done',
      ]);
      const agent = (await Agent.make(engine)).tool(lookup).leaf({ store, maxDepth: 2 });
      const result = await new ChatRunner().run(agent, 'go').result;
      expect(result.toolResults).toMatchObject([{ ok: true, output: 'from level one' }]);
      const done = store.writes.filter((s) => s.status === 'done');
      expect(done.map((s) => [s.task, s.result])).toEqual([
        ['level two', 'from level two'],
        ['level one', 'from level one'],
      ]);
      expect(store.writes.find((s) => s.task === 'level one')!.tools).toEqual(['lookup', 'spawn_leaf']);
      expect(store.writes.find((s) => s.task === 'level two')!.tools).toEqual(['lookup']);
    });

    it('refuses tools outside the allow-lists, and narrows to the ones asked for', async () => {
      const store = new RecordingStore(await stores.fresh());
      const engine = scriptedEngine([
        {
          toolCalls: [
            { id: 'bad', name: 'spawn_leaf', arguments: { task: 'mail it', tools: ['send'] } },
            { id: 'good', name: 'spawn_leaf', arguments: { task: 'look', tools: ['lookup'] } },
          ],
        },
        'looked',
        'done',
      ]);
      const agent = (await Agent.make(engine))
        .tool(lookup)
        .tool(send)
        .leaf({ store, tools: ['lookup'] });
      const result = await new ChatRunner({ concurrency: 1 }).run(agent, 'go').result;
      expect(result.toolResults[0]).toMatchObject({ id: 'bad', ok: false, error: { code: 'tool_not_allowed' } });
      expect((result.toolResults[0] as { error: { message: string } }).error.message).toContain('"send"');
      expect(result.toolResults[1]).toMatchObject({ id: 'good', ok: true, output: 'looked' });
      expect(store.writes.map((s) => s.tools)).toEqual([['lookup'], ['lookup']]);
    });

    it('does not start a leaf whose snapshot the storage refuses, and reports the coded storage error', async () => {
      const { store, code } = await stores.refusing();
      const engine = scriptedEngine([{ toolCalls: [{ name: 'spawn_leaf', arguments: { task: 'x' } }] }, 'gave up']);
      const agent = (await Agent.make(engine)).tool(lookup).leaf({ store });
      const result = await new ChatRunner().run(agent, 'go').result;
      expect(result.toolResults).toMatchObject([{ ok: false, error: { code } }]);
      expect(await store.list().catch(() => [])).toEqual([]);
      expect(result.text).toBe('gave up'); // the leaf consumed no scripted reply: it never ran
    });

    it('returns a finished leaf’s answer even when its done snapshot cannot be written, and warns of it', async () => {
      const inner = await stores.fresh();
      const refusingDone: SnapshotStore = {
        put: async (snapshot) => {
          if (snapshot.status === 'done') throw new Error('disk full');
          await inner.put(snapshot);
        },
        get: (id) => inner.get(id),
        list: () => inner.list(),
        delete: (id) => inner.delete(id),
      };
      let sent = 0;
      const sendOnce = defineTool({ name: 'send', description: 'Send mail', parameters: { type: 'object' }, idempotent: false, call: () => ++sent });
      const engine = scriptedEngine([
        { toolCalls: [{ name: 'spawn_leaf', arguments: { task: 'mail it' } }] },
        { toolCalls: [{ name: 'send', arguments: {} }] },
        'Mail sent.',
        'The leaf sent the mail.',
      ]);
      const agent = (await Agent.make(engine)).tool(sendOnce).leaf({ store: refusingDone });
      const run = new ChatRunner().run(agent, 'go');
      const events: RunEvent[] = [];
      for await (const event of run.events) events.push(event);
      const result = await run.result;
      expect(sent).toBe(1);
      expect(result.toolResults).toMatchObject([{ name: 'spawn_leaf', ok: true, output: 'Mail sent.' }]);
      const [snapshot] = await inner.list();
      expect(events.filter((e) => e.type === 'warning')).toMatchObject([
        { code: 'storage_error', leafId: snapshot!.id, message: expect.stringContaining('disk full') },
      ]);
    });

    it('aborts a running leaf when the parent run is aborted, and records it as failed', async () => {
      const store = new RecordingStore(await stores.fresh());
      const hang = defineTool({
        name: 'hang',
        description: 'x',
        parameters: { type: 'object' },
        idempotent: true,
        call: (_a, { signal }) => new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason))),
      });
      const engine = scriptedEngine([{ toolCalls: [{ name: 'spawn_leaf', arguments: { task: 'wait' } }] }, { toolCalls: [{ name: 'hang', arguments: {} }] }]);
      const agent = (await Agent.make(engine)).tool(hang).leaf({ store });
      const run = new ChatRunner().run(agent, 'go');
      for await (const event of run.events) if (event.type === 'tool_started' && event.name === 'hang') run.abort('stop');
      const error = await run.result.catch((e: unknown) => e);
      expect(isAmbiError(error, 'aborted')).toBe(true);
      // The leaf records its end as it unwinds, just after the parent settles.
      for (let i = 0; i < 200 && store.writes.at(-1)?.status === 'running'; i++) await new Promise((r) => setTimeout(r, 1));
      expect(store.writes.at(-1)).toMatchObject({ status: 'failed', error: { code: 'aborted' } });
    });

    it("lets the parent run approve a leaf's call that needs approval: it runs and the leaf answers", async () => {
      const store = new RecordingStore(await stores.fresh());
      const { remove, deletes } = deletingTool();
      const engine = leafDeleting('Deleted.', 'The leaf deleted it.');
      const agent = (await Agent.make(engine)).tool(remove).leaf({ store });
      const run = new ChatRunner().run(agent, 'go');
      for await (const event of run.events) if (event.type === 'approval_requested' && event.leafId) run.approve(event.call.id);
      const result = await run.result;
      expect(deletes.count).toBe(1);
      expect(result.toolResults).toMatchObject([{ name: 'spawn_leaf', ok: true, output: 'Deleted.' }]);
    });

    it("lets the parent run deny a leaf's call: the leaf gets a denied result", async () => {
      const store = new RecordingStore(await stores.fresh());
      const { remove, deletes } = deletingTool();
      const engine = leafDeleting('Not deleted.', 'The leaf was refused.');
      const agent = (await Agent.make(engine)).tool(remove).leaf({ store });
      const run = new ChatRunner().run(agent, 'go');
      const leafResults: ToolResult[] = [];
      for await (const event of run.events) {
        if (event.type === 'approval_requested' && event.leafId) run.deny(event.call.id, 'keep it');
        if (event.type === 'tool_finished' && event.leafId) leafResults.push(event.result);
      }
      const result = await run.result;
      expect(deletes.count).toBe(0);
      expect(leafResults).toMatchObject([{ id: 'del', ok: false, error: { code: 'denied', message: 'The user denied this call to "delete_note": keep it' } }]);
      expect(result.toolResults).toMatchObject([{ name: 'spawn_leaf', ok: true, output: 'Not deleted.' }]);
    });

    it('times out a leaf with spawn_leaf’s own timeout', async () => {
      const store = new RecordingStore(await stores.fresh());
      const engine = scriptedEngine([
        { toolCalls: [{ name: 'spawn_leaf', arguments: { task: 'slow' } }] },
        { delayMs: 5_000, text: 'too late' },
        'parent done',
      ]);
      const agent = (await Agent.make(engine)).leaf({ store, timeoutMs: 30 });
      const result = await new ChatRunner().run(agent, 'go').result;
      expect(result.toolResults).toMatchObject([{ ok: false, error: { code: 'timeout' }, attempts: 1 }]);
      expect(agent.registry.get('spawn_leaf')).toMatchObject({ idempotent: false, timeoutMs: 30 });
    });
  });
}
