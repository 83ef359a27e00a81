import { onAbort } from './abort-source.js';
import { callReporting } from './call-reporting.js';

/** One waiter for a slot: `grant` with the slot's release, or `refuse` with why it never got one. */
interface Waiter {
  grant: (release: () => void) => void;
  refuse: (reason: unknown) => void;
  unhook: (() => void) | undefined;
  /** Granted or refused already: left in the queue until the head passes it. */
  done: boolean;
}

const noop = () => {};

/** The queue is compacted once this many waiters before its head are done with. */
const COMPACT_AT = 1024;

/**
 * A FIFO counting semaphore: at most `limit` holders at once. A freed slot goes to the
 * first waiter synchronously, from the release that frees it: the next call starts in the
 * same turn as the last one ends, without a promise between them.
 */
export class Limiter {
  #active = 0;
  readonly #waiting: Waiter[] = [];
  /** The first waiter not yet served. */
  #head = 0;
  /** Slots are being handed out (see `#serve`): a release meanwhile only frees its slot. */
  #serving = false;

  constructor(readonly limit: number) {
    checkLimit(limit);
  }

  /** Slots in use now. */
  get active(): number {
    return this.#active;
  }

  /** Wait for a slot; resolves with its release function, or rejects with the signal's reason. */
  acquire(signal?: AbortSignal): Promise<() => void> {
    return new Promise((resolve, reject) => this.whenFree(signal, resolve, reject));
  }

  /**
   * Call `grant` with a slot's release once one is free, in turn with every other waiter:
   * at once if one is free now, else from the release that frees it. If `signal` aborts
   * first, `refuse` is called with its reason instead. Neither may throw: a throw from a grant
   * made at once reaches the caller, one made later (or a refusal) is reported as uncaught.
   */
  whenFree(signal: AbortSignal | undefined, grant: (release: () => void) => void, refuse: (reason: unknown) => void): void {
    if (signal?.aborted) return refuse(signal.reason);
    if (this.#active < this.limit && this.#head === this.#waiting.length) {
      this.#active++;
      return grant(this.#releaser());
    }
    const waiter: Waiter = { grant, refuse, unhook: undefined, done: false };
    this.#waiting.push(waiter);
    if (signal)
      waiter.unhook = onAbort(signal, () => {
        if (waiter.done) return;
        waiter.done = true;
        // What it holds (a call's arguments, say) is let go now, though its place waits for the head.
        waiter.grant = waiter.refuse = noop;
        this.#skipDone();
        callReporting(() => refuse(signal.reason));
      });
  }

  /** Move the head past waiters that are done with (refused), and compact. */
  #skipDone(): void {
    while (this.#head < this.#waiting.length && this.#waiting[this.#head]!.done) this.#head++;
    this.#compact();
  }

  #releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#active--;
      this.#serve();
    };
  }

  /** Hand free slots to waiters, first come first served: a loop, so a grant that releases at once nests no deeper. */
  #serve(): void {
    if (this.#serving) return;
    this.#serving = true;
    try {
      while (this.#active < this.limit && this.#head < this.#waiting.length) {
        const waiter = this.#waiting[this.#head++]!;
        if (waiter.done) continue;
        waiter.done = true;
        waiter.unhook?.();
        this.#active++;
        const release = this.#releaser();
        callReporting(() => waiter.grant(release));
      }
    } finally {
      this.#serving = false;
      this.#compact();
    }
  }

  /** Drop the waiters before the head once there are many of them (and all, once the queue is empty). */
  #compact(): void {
    if (this.#head === this.#waiting.length) {
      this.#waiting.length = 0;
      this.#head = 0;
    } else if (this.#head >= COMPACT_AT) {
      this.#waiting.splice(0, this.#head);
      this.#head = 0;
    }
  }
}

/** A process-wide cap on running tool calls, shared by several runners and their leaves. */
export class ConcurrencyBudget extends Limiter {}

/** Throw a RangeError unless `limit` is a whole number >= 1. */
export function checkLimit(limit: number): void {
  if (!(Number.isInteger(limit) && limit >= 1)) throw new RangeError(`A concurrency limit must be a whole number >= 1 (got ${limit})`);
}
