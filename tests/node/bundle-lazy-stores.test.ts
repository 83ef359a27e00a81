// Store calls take effect in call order, whether awaited or not, and a run's first lazily loaded
// code (the conversation lock) keeps runs in the order they started. Each test gets fresh modules,
// so its first calls are the first of the realm.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Message } from '../../src/core/types.js';
import type { JournalAsk } from '../../src/store/journal-transitions.js';

const user = (content: string): Message => ({ role: 'user', content });
const pending = (callId: string): JournalAsk => ({
  idempotencyKey: `key-${callId}`,
  callId,
  name: 'remove',
  arguments: {},
  conversation: 'c',
  requestedAt: 10,
});

async function fresh() {
  vi.resetModules();
  const { MemoryConversationStore } = await import('../../src/store/memory-conversation-store.js');
  return { MemoryConversationStore };
}

describe('memory stores keep call order', () => {
  beforeEach(() => {
    vi.resetModules();
  });

  it('keeps append, truncate and append in call order', async () => {
    const { MemoryConversationStore } = await fresh();
    const store = new MemoryConversationStore();
    const steps = [store.append('c', [user('a'), user('b')]), store.truncate('c', 1), store.append('c', [user('c')])];
    const loaded = store.load('c');
    await Promise.all(steps);
    expect(await loaded).toEqual([user('a'), user('c')]);
  });

  it('refuses a bad id with the same coded error on the first call', async () => {
    const { MemoryConversationStore } = await fresh();
    const error = await new MemoryConversationStore().load(42 as unknown as string).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'storage_invalid' });
  });

  it('a journal clear() called while an ask waits comes after it; an ask after it stays', async () => {
    const { MemoryConversationStore } = await fresh();
    const { journal } = new MemoryConversationStore();
    const requested = journal.ask(pending('a'));
    journal.clear('c');
    const after = journal.ask(pending('b'));
    await Promise.all([requested, after]);
    expect((await journal.listByConversation('c')).map((record) => record.callId)).toEqual(['b']);
  });

  it('once loaded, a store call takes effect at once, before its promise is awaited', async () => {
    const { MemoryConversationStore } = await fresh();
    const store = new MemoryConversationStore();
    await store.load('warm');
    void store.append('c', [user('now')]);
    const { journal } = store;
    await journal.listByConversation('warm');
    void journal.ask(pending('a'));
    journal.clear('c');
    expect(await store.load('c')).toEqual([user('now')]);
    expect(await journal.listByConversation('c')).toEqual([]);
  });

  it('runs on one conversation started together ask for its lock (which loads with the first) in the order they started', async () => {
    vi.resetModules();
    const { Agent, ChatRunner, isAmbiError, scriptedEngine } = await import('../../src/index.js');
    const agent = await Agent.make(scriptedEngine(['first answer', 'second answer']));
    const runner = new ChatRunner();
    const first = runner.run(agent, 'one', { conversation: 'c' });
    const second = runner.run(agent, 'two', { conversation: 'c', lock: 'fail' });
    const third = runner.run(agent, 'three', { conversation: 'c' });
    expect((await first.result).text).toBe('first answer');
    expect(isAmbiError(await second.result.catch((error: unknown) => error), 'conversation_busy')).toBe(true);
    expect((await third.result).text).toBe('second answer');
  });
});
