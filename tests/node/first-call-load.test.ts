// A memory store's first call loads what it keeps (src/store/first-call.ts): calls made before,
// during and after that load take effect in the order they were made, a failed load fails the
// calls that waited on it and is tried again by the next, and a store nobody calls loads nothing.
import { describe, expect, it } from 'vitest';
import { FirstCallLoad } from '../../src/store/first-call.js';
import { MemoryConversationStore } from '../../src/store/memory-conversation-store.js';

/** A load that resolves when told to, counting how often it was started. */
function gatedLoad<T>(value: T) {
  let open!: () => void;
  let fail!: (error: unknown) => void;
  const state = { started: 0 };
  const load = () => {
    state.started++;
    return new Promise<T>((resolve, reject) => {
      open = () => resolve(value);
      fail = reject;
    });
  };
  return { load, open: () => open(), fail: (error: unknown) => fail(error), state };
}

describe('FirstCallLoad', () => {
  it('starts nothing until the first call, then loads once for every call', async () => {
    const gate = gatedLoad({ seen: [] as number[] });
    const kept = new FirstCallLoad(gate.load);
    expect(kept.started).toBe(false);
    expect(gate.state.started).toBe(0);
    const calls = [1, 2, 3].map((n) => kept.call((loaded) => loaded.seen.push(n)));
    expect(kept.started).toBe(true);
    gate.open();
    await Promise.all(calls);
    expect(gate.state.started).toBe(1);
    expect(await kept.call((loaded) => loaded.seen)).toEqual([1, 2, 3]);
  });

  it('keeps call order between calls that waited for the load and calls made as it settles', async () => {
    const gate = gatedLoad({ seen: [] as string[] });
    const kept = new FirstCallLoad(gate.load);
    const waited = kept.call((loaded) => loaded.seen.push('waited'));
    gate.open();
    // Made after the load resolved but before the waiting call ran: it must still come after it.
    const after = kept.call((loaded) => loaded.seen.push('after'));
    await Promise.all([waited, after]);
    expect(await kept.call((loaded) => loaded.seen)).toEqual(['waited', 'after']);
  });

  it('once loaded and no call waits, a call runs at once, before its promise is awaited', async () => {
    const kept = new FirstCallLoad(async () => ({ seen: [] as string[] }));
    const loaded = await kept.call((value) => value);
    void kept.call((value) => value.seen.push('now'));
    expect(loaded.seen).toEqual(['now']);
  });

  it('fails the calls that waited on a failed load, and the next call loads again', async () => {
    const first = gatedLoad('first');
    let loads = 0;
    const second = gatedLoad('second');
    const kept = new FirstCallLoad(() => (++loads === 1 ? first.load() : second.load()));
    const waiting = [kept.call((v) => v), kept.call((v) => v)];
    first.fail(new Error('chunk failed to load'));
    for (const call of waiting) await expect(call).rejects.toThrow('chunk failed to load');
    const again = kept.call((v) => v);
    second.open();
    expect(await again).toBe('second');
    expect(loads).toBe(2);
  });

  it('a refusal of a use rejects that call only', async () => {
    const kept = new FirstCallLoad(async () => 'loaded');
    const refused = kept.call(() => {
      throw new TypeError('bad input');
    });
    await expect(refused).rejects.toThrow('bad input');
    expect(await kept.call((v) => v)).toBe('loaded');
  });
});

describe('memory stores load what they keep with their first call', () => {
  it('deleting a conversation whose journal was never called leaves that journal empty and usable', async () => {
    const store = new MemoryConversationStore();
    // The journal was never called: there is nothing of it to clear, and its clear loads nothing.
    await store.delete('never');
    expect(await store.list()).toEqual([]);
    expect(await store.journal.listByConversation('never')).toEqual([]);
  });

  it('delete clears the journal only after the journal calls made before it', async () => {
    const store = new MemoryConversationStore();
    const { journal } = store;
    await store.append('c', [{ role: 'user', content: 'hi' }]);
    // Not awaited: the ask waits for the journal's load, the delete must not overtake it.
    const asked = journal.ask({ idempotencyKey: 'k', callId: 'a', name: 'remove', arguments: {}, conversation: 'c', requestedAt: 1 });
    const deleted = store.delete('c');
    await Promise.all([asked, deleted]);
    expect(await journal.listByConversation('c')).toEqual([]);
    expect(await store.load('c')).toEqual([]);
  });
});
