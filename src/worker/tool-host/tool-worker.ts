import * as Comlink from 'comlink';
import { InvalidOptionError } from '../../errors/invalid-option-error.js';
import { AmbiError } from '../../errors/ambi-error.js';
import type { CallTarget } from '../../core/types.js';
import type { ServedOutput } from '../../call/served-output.js';
import type { AbortSource } from '../../util/abort-source.js';
import { deadline } from '../../util/deadlines.js';
import type { ToolDescriptor, ToolHostApi, ToolInvoker } from '../wire/protocol.js';
import { toWireReason } from '../wire/wire-error.js';
import { Inflight, onWorkerClose, onWorkerDeath } from '../wire/worker-life.js';

/** Where a dedicated tool worker comes from: a module URL, or a factory (what a production build needs). */
export type WorkerSource = string | URL | (() => Worker);

/** One live worker and the calls in flight in it. */
interface Live {
  worker: Worker;
  api: Comlink.Remote<ToolHostApi>;
  inflight: Inflight;
  dead: boolean;
}

export interface WorkerToolsOptions {
  /** How long a worker tool may ignore its aborted signal before its worker is terminated (default 100 ms). */
  graceMs?: number;
  /**
   * How long the worker may take to load and offer its tools (its `exposeTools`) before it
   * is terminated and `workerTools` rejects with `worker_start_timeout` (default 10 000 ms).
   */
  startTimeoutMs?: number;
}

/** Default wait between aborting a worker tool's signal and terminating a worker that ignores it. */
export const DEFAULT_GRACE_MS = 100;

/** Default wait for a new tool worker to offer its tools: a module loads in well under that, even on a slow network. */
export const DEFAULT_START_TIMEOUT_MS = 10_000;

/**
 * Owns a dedicated tool worker on the page. A call whose signal aborts retires its
 * worker (new calls get a fresh one); if the call has not settled after `graceMs`, the
 * worker is terminated, which really stops runaway CPU work, and the calls still in it
 * end with `worker_terminated`. A worker that errors, fails to load or closes itself ends
 * its calls with `worker_crashed`; one that offers no tools within `startTimeoutMs` is terminated.
 */
export class ToolWorkerSupervisor {
  #current: Live | undefined;
  #nextKey = 0;
  readonly #all = new Set<Live>();
  readonly graceMs: number;
  readonly startTimeoutMs: number;

  /** Throws `invalid_option` for a wait that is not a finite number of milliseconds (`setTimeout` would fire it at once). */
  constructor(
    readonly source: WorkerSource,
    options: WorkerToolsOptions = {},
  ) {
    this.graceMs = milliseconds('graceMs', options.graceMs ?? DEFAULT_GRACE_MS, 0);
    this.startTimeoutMs = milliseconds('startTimeoutMs', options.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS, 1);
  }

  /** Start the worker and read the tools it serves. */
  async start(): Promise<ToolDescriptor[]> {
    const live = this.#live();
    // A module that never calls exposeTools, or spins as it loads, would never answer.
    const stop = deadline(this.startTimeoutMs, () =>
      this.#kill(
        live,
        new AmbiError(
          'worker_start_timeout',
          `The tool worker offered no tools within ${this.startTimeoutMs} ms: it never called exposeTools, or it is stuck loading`,
        ),
      ),
    );
    try {
      return await this.#track(live, live.api.descriptors());
    } finally {
      stop();
    }
  }

  /** Tool `name` as the page serves it to the runner worker. */
  served(name: string): ToolInvoker {
    return {
      call: (args, ctx, abort) => this.#abortable(`"${name}"`, abort, (api, key) => api.call(name, args, ctx, key) as Promise<ServedOutput>),
      needsApproval: (args, abort) => this.#abortable(`the approval rule of "${name}"`, abort, (api, key) => api.needsApproval(name, args, key)),
      target: (args, abort) => this.#abortable(`the target of "${name}"`, abort, (api, key) => api.target(name, args, key) as Promise<CallTarget>),
    };
  }

  /** Terminate every worker; calls in flight end with `closed`. */
  close(): void {
    for (const live of this.#all) this.#kill(live, new AmbiError('closed', 'The runner was closed'));
  }

  /**
   * Send a call or an approval rule (`what`, in messages) to the current worker under `abort`:
   * on abort the worker is told, takes no new calls, and is terminated if it has not
   * answered within the grace (a rule that spins is stopped like a call that does).
   */
  #abortable<T>(what: string, abort: AbortSource, send: (api: Comlink.Remote<ToolHostApi>, key: number) => Promise<T>): Promise<T> {
    const live = this.#live();
    const key = this.#nextKey++;
    let settled = false;
    const unhook = abort.onAbort(() => {
      void live.api.abort(key, toWireReason(abort.reason)).catch(() => {});
      if (this.#current === live) this.#current = undefined; // takes no new calls
      // On the deadlines' timer, which re-arms past setTimeout's range (a bare setTimeout fires a grace of 2**31 ms at once).
      deadline(this.graceMs, () => {
        if (!settled)
          this.#kill(live, new AmbiError('worker_terminated', `The tool worker was terminated: ${what} did not stop within ${this.graceMs} ms of its abort`));
      });
    });
    return this.#track<T>(live, send(live.api, key), () => {
      settled = true;
      unhook();
    });
  }

  /** The current worker, started if there is none. */
  #live(): Live {
    if (this.#current && !this.#current.dead) return this.#current;
    const worker = typeof this.source === 'function' ? this.source() : new Worker(this.source, { type: 'module' });
    const live: Live = { worker, api: Comlink.wrap<ToolHostApi>(worker), inflight: new Inflight(), dead: false };
    onWorkerDeath(worker, 'tool worker', (error) => this.#kill(live, error));
    onWorkerClose(worker, 'tool worker', (error) => this.#kill(live, error));
    this.#current = live;
    this.#all.add(live);
    return live;
  }

  /** A call's promise that also rejects if its worker dies; `settled` runs when it ends either way, then an idle retired worker goes. */
  #track<T>(live: Live, promise: Promise<T>, settled?: () => void): Promise<T> {
    return live.inflight.track(promise, () => {
      settled?.();
      this.#retireIfIdle(live);
    });
  }

  #retireIfIdle(live: Live): void {
    if (live !== this.#current && live.inflight.size === 0 && !live.dead) this.#kill(live, new AmbiError('closed', 'retired'));
  }

  #kill(live: Live, error: AmbiError): void {
    if (live.dead) return;
    live.dead = true;
    live.worker.terminate();
    this.#all.delete(live);
    if (this.#current === live) this.#current = undefined;
    live.inflight.end(error);
  }
}

/** `value` if it is a finite number of milliseconds, at least `least`; else an `invalid_option` error. */
function milliseconds(name: string, value: number, least: number): number {
  if (typeof value === 'number' && Number.isFinite(value) && value >= least) return value;
  throw new InvalidOptionError(name, `must be a finite number of milliseconds >= ${least} (got ${String(value)})`);
}
