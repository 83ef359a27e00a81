import { expect, it } from 'vitest';
import { isAmbiError } from '../../src/index.js';
import { withConversationLock } from '../../src/runner/conversation-lock.js';
import { describeConversationLock } from '../contract/conversation-lock.js';

describeConversationLock('node');

it('the in-realm lock is free the moment its holder is done: a lock: fail request right after gets it', async () => {
  const signal = new AbortController().signal;
  const id = `c-${crypto.randomUUID()}`;
  const outcomes: unknown[] = [];
  const first = withConversationLock(id, 'wait', signal, async () => 'first');
  // Asked in the same turn the holder finishes, before any later microtask.
  void first.then(() =>
    withConversationLock(id, 'fail', signal, async () => 'second').then(
      (v) => outcomes.push(v),
      (e: unknown) => outcomes.push(isAmbiError(e) ? e.code : e),
    ),
  );
  await first;
  await new Promise((r) => setTimeout(r, 0));
  expect(outcomes).toEqual(['second']);
});
