import { callReporting } from './call-reporting.js';

/** Who is told that a call was aborted: its signal is made only when someone reads it. */
export interface AbortSource {
  /** Made on first read (aborted already if the source is). */
  readonly signal: AbortSignal;
  readonly aborted: boolean;
  readonly reason: unknown;
  /** Run `callback` once when this aborts (never, if it already has); returns the function that cancels it. */
  onAbort(callback: () => void): () => void;
}

const noop = () => {};

/**
 * An AbortController whose signal is made on first read. Most tools never read their
 * signal, and in a browser a controller, and each listener added to or removed from its
 * signal, is a call into the DOM costing microseconds: the bulk of a call's bookkeeping.
 */
export class LazyAbortController implements AbortSource {
  #controller: AbortController | undefined;
  #aborted = false;
  #reason: unknown;
  /** The first callback waiting, then a Set once a second one comes: nearly every call has at most one (no Set per call). */
  #callback: (() => void) | undefined;
  #callbacks: Set<() => void> | undefined;

  get signal(): AbortSignal {
    if (!this.#controller) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  get aborted(): boolean {
    return this.#aborted;
  }

  get reason(): unknown {
    return this.#controller ? this.#controller.signal.reason : this.#reason;
  }

  abort(reason?: unknown): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason = reason;
    const callback = this.#callback;
    const callbacks = this.#callbacks;
    this.#callback = undefined;
    this.#callbacks = undefined;
    if (callbacks) runAll(callbacks);
    else if (callback) callReporting(callback);
    this.#controller?.abort(reason);
  }

  onAbort(callback: () => void): () => void {
    if (this.#aborted) return noop;
    if (!this.#callbacks) {
      if (this.#callback === undefined) {
        this.#callback = callback;
        return () => this.#drop(callback);
      }
      // A second one: both go in a Set, in the order they came.
      this.#callbacks = new Set([this.#callback]);
      this.#callback = undefined;
    }
    const callbacks = this.#callbacks;
    callbacks.add(callback);
    return () => callbacks.delete(callback);
  }

  #drop(callback: () => void): void {
    if (this.#callback === callback) this.#callback = undefined;
    else this.#callbacks?.delete(callback);
  }
}

/** The callbacks waiting on each signal, behind one listener per signal. */
const waiting = new WeakMap<AbortSignal, Set<() => void>>();

/**
 * Run `callback` once when `signal` aborts (never, if it already has); returns the function
 * that cancels it. One listener per signal however many wait on it: every call queued behind
 * a concurrency limit waits on its run's signal, and a browser scans a signal's listeners on
 * each add and remove.
 */
export function onAbort(signal: AbortSignal, callback: () => void): () => void {
  if (signal.aborted) return noop;
  let callbacks = waiting.get(signal);
  if (!callbacks) {
    const mine = new Set<() => void>();
    callbacks = mine;
    waiting.set(signal, mine);
    signal.addEventListener(
      'abort',
      () => {
        waiting.delete(signal);
        runAll(mine);
      },
      { once: true },
    );
  }
  const set = callbacks;
  set.add(callback);
  return () => set.delete(callback);
}

/** A controller that follows a parent signal, and the function that stops it following. */
export interface ChildController {
  controller: AbortController;
  /** Stop following the parent (call it when the child's work has settled: a long-lived parent then holds nothing of it). */
  unlink: () => void;
}

/** An AbortController that aborts, with the parent's reason, when `parent` does (at once if it has). */
export function childController(parent: AbortSignal | undefined): ChildController {
  const controller = new AbortController();
  if (!parent) return { controller, unlink: noop };
  if (parent.aborted) {
    controller.abort(parent.reason);
    return { controller, unlink: noop };
  }
  return { controller, unlink: onAbort(parent, () => controller.abort(parent.reason)) };
}

/**
 * `promise`, or a rejection with `reasonOf(signal)` (default: the signal's reason) as soon as
 * `signal` aborts; the promise itself runs on.
 */
export function untilAborted<T>(
  promise: Promise<T>,
  signal: AbortSignal | undefined,
  reasonOf: (signal: AbortSignal) => unknown = (s) => s.reason,
): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(reasonOf(signal));
  return new Promise<T>((resolve, reject) => {
    const unhook = onAbort(signal, () => reject(reasonOf(signal)));
    promise.then(
      (value) => {
        unhook();
        resolve(value);
      },
      (error: unknown) => {
        unhook();
        reject(error);
      },
    );
  });
}

/** `signal` as an AbortSource. */
export function sourceOf(signal: AbortSignal): AbortSource {
  return {
    signal,
    get aborted() {
      return signal.aborted;
    },
    get reason() {
      return signal.reason as unknown;
    },
    onAbort: (callback) => onAbort(signal, callback),
  };
}

/** Each callback, as listeners run: one that throws is reported and the rest still run. */
function runAll(callbacks: Iterable<() => void>): void {
  for (const callback of callbacks) callReporting(callback);
}
