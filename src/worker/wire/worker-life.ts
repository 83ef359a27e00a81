import { AmbiError } from '../../errors/ambi-error.js';

/** Calls to one worker in flight: each also rejects, with the same coded error, when that worker ends. */
export class Inflight {
  readonly #ends = new Set<(error: AmbiError) => void>();
  #ended: AmbiError | undefined;

  get size(): number {
    return this.#ends.size;
  }

  /** `call`, or the end's error if the worker ends first (or already has); `settled` runs once either way, before the caller hears. */
  track<T>(call: Promise<T>, settled?: () => void): Promise<T> {
    if (this.#ended) return Promise.reject(this.#ended);
    return new Promise<T>((resolve, reject) => {
      let done = false;
      const finish = () => {
        if (done) return false;
        done = true;
        this.#ends.delete(end);
        settled?.();
        return true;
      };
      const end = (error: AmbiError) => finish() && reject(error);
      this.#ends.add(end);
      call.then(
        (value) => finish() && resolve(value),
        (error: unknown) => finish() && reject(error),
      );
    });
  }

  /** The calls in flight reject with `error` (their worker was replaced: another tab leads a shared runner); later calls go on. */
  interrupt(error: AmbiError): void {
    if (this.#ended) return;
    for (const end of [...this.#ends]) end(error);
  }

  /** The worker ended: every call in flight, and every later one, rejects with `error`. */
  end(error: AmbiError): void {
    if (this.#ended) return;
    this.#ended = error;
    for (const end of [...this.#ends]) end(error);
  }
}

/** Call `die` with a `worker_crashed` error when `worker` (named `name` in messages) fails to load, throws, or sends what cannot be read. */
export function onWorkerDeath(worker: Worker, name: string, die: (error: AmbiError) => void): void {
  worker.addEventListener('error', (event) => {
    event.preventDefault();
    die(new AmbiError('worker_crashed', `The ${name} crashed: ${event.message || 'it failed to load or threw'}`));
  });
  worker.addEventListener('messageerror', () => die(new AmbiError('worker_crashed', `The ${name} sent a message that could not be read`)));
}

/** What a tool worker posts as it closes itself; a closed worker fires no event on the page. */
const CLOSING = 'ambi-web:closing';

interface ClosableScope {
  close(): void;
  postMessage(message: unknown): void;
}

/** In a worker: make `self.close()` tell the page first, so the calls in this worker end at once instead of at their timeouts. */
export function announceClose(scope: ClosableScope): void {
  const close = scope.close;
  if (typeof close !== 'function') return;
  scope.close = () => {
    scope.postMessage({ [CLOSING]: 1 });
    close.call(scope);
  };
}

/** Call `die` with a `worker_crashed` error when `worker` closes itself (see `announceClose`). */
export function onWorkerClose(worker: Worker, name: string, die: (error: AmbiError) => void): void {
  worker.addEventListener('message', (event) => {
    const data = event.data as Record<string, unknown> | null;
    if (typeof data === 'object' && data !== null && data[CLOSING] === 1) die(new AmbiError('worker_crashed', `The ${name} closed itself (self.close())`));
  });
}
