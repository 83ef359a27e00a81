import { isAmbiError } from '../../errors/ambi-error.js';
import { InvalidOptionError } from '../../errors/invalid-option-error.js';
import type { ToolDescriptor } from '../wire/protocol.js';

/** A tool handed to the runner worker, and who hears if the worker refuses it; or a tool taken back. */
type Registration = { descriptor: ToolDescriptor; refused: (error: unknown) => void } | { removed: string };

/**
 * Keeps the runner worker set up as the page declared it: configured, then every tool
 * handed to it, in order. A configuration that failed (a database another tab blocks,
 * say) is not kept as the worker's state: the next sync tries it again, and the tools
 * wait for it, so one bad start-up does not break the runner for good.
 */
export class RunnerSetup {
  #configured = false;
  /** The last configuration attempt failed: only a sync that retries tries again. */
  #failed = false;
  readonly #waiting: Registration[] = [];
  /** The tools the worker took, by name, in order: what `reset` hands to a new runner. */
  readonly #registered = new Map<string, Extract<Registration, { descriptor: ToolDescriptor }>>();
  /** The last sync; each one starts after it, however it ended. */
  #last: Promise<void> = Promise.resolve();

  constructor(
    readonly configure: () => Promise<void>,
    /** Registers tools in order; resolves with each one's refusal, or undefined where it was registered. */
    readonly register: (descriptors: ToolDescriptor[]) => Promise<Array<unknown | undefined>>,
    readonly unregister: (name: string) => Promise<void>,
  ) {}

  /** Register `descriptor` at the next sync; a refusal (its schema, say) goes to `refused`. */
  add(descriptor: ToolDescriptor, refused: (error: unknown) => void): void {
    this.#waiting.push({ descriptor, refused });
  }

  /**
   * The page now talks to another runner (a shared one, once another tab leads): the next sync
   * configures it, then registers every tool the last one took, before what waits.
   */
  reset(): void {
    this.#configured = false;
    this.#failed = false;
    this.#waiting.unshift(...this.#registered.values());
    this.#registered.clear();
  }

  /** Remove tool `name` at the next sync, after the registrations before it. */
  remove(name: string): void {
    this.#waiting.push({ removed: name });
  }

  /**
   * Bring the worker up to date, after the syncs before this one; rejects if it cannot be
   * configured, or dies. With `retry` false (as a tool is added), a configuration that
   * failed is left for the next run to try again: each attempt may wait on a blocked database.
   */
  sync(retry = true): Promise<void> {
    const step = this.#last.catch(() => {}).then(() => this.#catchUp(retry));
    step.catch(() => {});
    this.#last = step;
    return step;
  }

  async #catchUp(retry: boolean): Promise<void> {
    if (!this.#configured) {
      if (this.#failed && !retry) return;
      try {
        await this.configure();
      } catch (error) {
        this.#failed = true;
        throw uncloneable(error) ?? error;
      }
      this.#configured = true;
    }
    while (this.#waiting.length > 0) {
      const next = this.#waiting.shift()!;
      if ('removed' in next) {
        this.#registered.delete(next.removed);
        await this.unregister(next.removed);
        continue;
      }
      // Every registration up to the next removal, in one message: 1,000 tools cost one round trip, not 1,000.
      const batch = [next];
      while (this.#waiting[0] && !('removed' in this.#waiting[0])) batch.push(this.#waiting.shift() as (typeof batch)[number]);
      let refusals: Array<unknown | undefined>;
      try {
        refusals = await this.register(batch.map((registration) => registration.descriptor));
      } catch (error) {
        // A worker that died or closed refuses nothing: everything pending ends with that error anyway.
        if (isAmbiError(error, 'worker_crashed') || isAmbiError(error, 'closed')) throw error;
        refusals = batch.map(() => error);
      }
      batch.forEach((registration, i) => {
        if (refusals[i] !== undefined) registration.refused(refusals[i]);
        else this.#registered.set(registration.descriptor.name, registration);
      });
    }
  }
}

/** A configuration the browser could not post to the worker (a function, a class instance in an engine config), as a coded error. */
function uncloneable(error: unknown): InvalidOptionError | undefined {
  if (!(error instanceof DOMException) || error.name !== 'DataCloneError') return undefined;
  return new InvalidOptionError(
    'engine',
    `the runner's configuration cannot cross to its worker, only plain data can (no functions or class instances): ${error.message}`,
  );
}
