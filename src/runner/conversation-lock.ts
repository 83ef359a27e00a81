import { ConversationBusyError } from '../errors/conversation-busy-error.js';
import { RunAbortedError } from '../errors/run-aborted-error.js';
import { untilAborted } from '../util/abort-source.js';

/** What a run does when its conversation is held by another run: wait its turn, or fail at once. */
export type LockMode = 'wait' | 'fail';

interface LockManagerLike {
  request<T>(name: string, options: { ifAvailable?: boolean; signal?: AbortSignal }, callback: (lock: unknown) => Promise<T>): Promise<T>;
}

/**
 * Run `work` holding the conversation's lock: Web Locks where the realm has them (so
 * two tabs serialise), an in-realm queue otherwise (Node). Aborted while waiting for the
 * lock, it rejects with the run's own coded abort, as an abort anywhere else does.
 */
export async function withConversationLock<T>(conversation: string, mode: LockMode, signal: AbortSignal, work: () => Promise<T>): Promise<T> {
  const name = `ambi-web:conversation:${conversation}`;
  const locks = (globalThis.navigator as { locks?: LockManagerLike } | undefined)?.locks ?? localLocks;
  const options = mode === 'fail' ? { ifAvailable: true } : { signal };
  let holding = false;
  try {
    return await locks.request(name, options, async (lock) => {
      if (lock === null) throw new ConversationBusyError(conversation);
      holding = true;
      return work();
    });
  } catch (error) {
    if (!holding && signal.aborted) throw new RunAbortedError(signal.reason);
    throw error;
  }
}

/** The same contract as Web Locks' `request`, for realms without `navigator.locks`. */
const held = new Map<string, Promise<unknown>>();
const localLocks: LockManagerLike = {
  async request(name, options, callback) {
    const before = held.get(name);
    if (before && options.ifAvailable) return callback(null);
    let release!: () => void;
    const mine = new Promise<void>((resolve) => (release = resolve));
    const chain = (before ?? Promise.resolve()).then(() => mine);
    held.set(name, chain);
    let holding = false;
    try {
      if (before) await untilAborted(before, options.signal);
      holding = true;
      return await callback({ name });
    } finally {
      release();
      // The holder frees the name at once, unless a later request queued behind it. A waiter
      // that gave up still sits in the queue behind its holder: its entry goes only when the
      // chain has settled (and again only if nothing was queued behind it).
      const forget = () => {
        if (held.get(name) === chain) held.delete(name);
      };
      if (holding) forget();
      else void chain.then(forget);
    }
  },
};
