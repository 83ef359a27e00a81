// One runner per conversation: run unchanged in Node (in-realm locks) and Chromium (Web Locks).
import { describe, expect, it } from 'vitest';
import { Agent, ChatRunner, isAmbiError, MemoryConversationStore, type Engine } from '../../src/index.js';
import type { EngineEvent } from '../../src/extend/index.js';

/** An engine whose replies wait for `release`, recording how many requests are open at once. */
function heldEngine() {
  const state = { open: 0, peak: 0, releases: [] as Array<() => void> };
  const engine: Engine = {
    nativeTools: true,
    async *stream(): AsyncIterable<EngineEvent> {
      state.open++;
      state.peak = Math.max(state.peak, state.open);
      await new Promise<void>((resolve) => state.releases.push(resolve));
      state.open--;
      yield { type: 'text', text: 'ok' };
      yield { type: 'finish', reason: 'stop' };
    },
  };
  return { engine, state };
}

const tick = () => new Promise((r) => setTimeout(r, 5));

/** Wait until `ready()` holds (a loaded machine may take more than one tick to start a run). */
async function until(ready: () => boolean): Promise<void> {
  for (let waited = 0; !ready(); waited += 5) {
    if (waited > 10_000) throw new Error('timed out waiting for the run to reach the engine');
    await tick();
  }
}

/** A held engine and `start(input)`, which runs it on one fresh conversation, each run on its own ChatRunner. */
async function oneConversation(conversations?: MemoryConversationStore) {
  const { engine, state } = heldEngine();
  const agent = await Agent.make(engine, conversations ? { conversations } : {});
  const id = `c-${crypto.randomUUID()}`;
  const start = (input: string, options: { lock?: 'fail' } = {}) => new ChatRunner().run(agent, input, { conversation: id, ...options });
  return { state, id, start };
}

export function describeConversationLock(realm: string): void {
  describe(`one runner per conversation (${realm})`, () => {
    it('serialises two runs of the same conversation: the second waits for the first', async () => {
      const conversations = new MemoryConversationStore();
      const { state, id, start } = await oneConversation(conversations);
      const first = start('one');
      const second = start('two');
      await until(() => state.open === 1);
      await tick();
      expect(state.open).toBe(1);
      state.releases.shift()!();
      await first.result;
      await until(() => state.releases.length === 1);
      state.releases.shift()!();
      await second.result;
      expect(state.peak).toBe(1);
      expect((await conversations.load(id)).map((m) => m.content)).toEqual(['one', 'ok', 'two', 'ok']);
    });

    it("fails the second run at once with conversation_busy when it chooses lock: 'fail'", async () => {
      const { state, start } = await oneConversation();
      const first = start('one');
      await until(() => state.open === 1);
      const error = await start('two', { lock: 'fail' }).result.catch((e: unknown) => e);
      expect(isAmbiError(error, 'conversation_busy')).toBe(true);
      state.releases.shift()!();
      await first.result;
    });

    it('runs different conversations side by side', async () => {
      const { engine, state } = heldEngine();
      const agent = await Agent.make(engine);
      const a = new ChatRunner().run(agent, 'a', { conversation: `a-${crypto.randomUUID()}` });
      const b = new ChatRunner().run(agent, 'b', { conversation: `b-${crypto.randomUUID()}` });
      await until(() => state.open === 2);
      expect(state.open).toBe(2);
      state.releases.splice(0).forEach((release) => release());
      await Promise.all([a.result, b.result]);
    });

    it('aborts a run that is still waiting for the lock, with code aborted', async () => {
      const { state, start } = await oneConversation();
      const first = start('one');
      const second = start('two');
      await until(() => state.open === 1);
      second.abort('changed my mind');
      const error = await second.result.catch((e: unknown) => e);
      expect(isAmbiError(error, 'aborted')).toBe(true);
      expect(state.open).toBe(1);
      state.releases.shift()!();
      await first.result;
    });

    it('keeps a run waiting behind the holder even after the run queued before it aborted', async () => {
      const { state, start } = await oneConversation();
      const first = start('one');
      const second = start('two');
      await until(() => state.open === 1);
      second.abort('changed my mind');
      await second.result.catch(() => {});
      const third = start('three');
      await tick();
      expect(state.open).toBe(1);
      state.releases.shift()!();
      await first.result;
      await until(() => state.releases.length === 1);
      expect(state.open).toBe(1);
      state.releases.shift()!();
      await third.result;
      expect(state.peak).toBe(1);
    });
  });
}
