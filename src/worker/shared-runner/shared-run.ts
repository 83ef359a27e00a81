import type { RunEvent } from '../../core/run.js';
import { AmbiError } from '../../errors/ambi-error.js';
import type { Run } from '../../runner/chat-runner.js';
import type { EventChannel } from '../../runner/events.js';
import { runFailure } from '../../runner/run-failure.js';
import type { Client } from './client.js';
import type { ResumableRun } from './lead-protocol.js';
import { RunView } from './run-view.js';

/**
 * A run of the origin's runner as every page sees it: its events go to each page that follows
 * it (the one that started it, and each that attached), and are kept, compacted, for a page that
 * attaches later, which gets them first (the run's state so far), then the rest as they come.
 */
export class SharedRun {
  readonly view: RunView;
  readonly #followers = new Set<Client>();
  #run: Run | undefined;
  #ended = false;

  constructor(
    readonly runId: string,
    readonly conversation: string | undefined,
    /** The tab that started it: its calls prefer that tab's page tools. */
    readonly home: string | undefined,
    /** What another tab's runner resumes it from, should this one's tab close (a leading tab's run on a database). */
    readonly resumable: ResumableRun | undefined,
    readonly onEnd: (run: SharedRun) => void,
  ) {
    this.view = new RunView(runId, conversation, true);
  }

  get ended(): boolean {
    return this.#ended;
  }

  get started(): boolean {
    return this.#run !== undefined;
  }

  /** The run itself: its events go out from now on (a run a leading tab handed on starts when it is resumed). */
  start(run: Run): void {
    this.#run = run;
    (run.events as EventChannel).pipe((event) => this.#emit(event));
  }

  /** An event the runner adds before the run starts (a run handed on says so). */
  note(event: RunEvent): void {
    this.#emit(event);
  }

  /** End a run that could not start (a run handed on that could not be resumed). */
  fail(error: unknown): void {
    this.#emit({ type: 'run_failed', error: runFailure(error) });
    this.#emit(null);
  }

  /** Page `client` follows the run from now on: first its state so far, then each event once. */
  attach(client: Client): void {
    for (const event of this.view.events) client.link.event(this.runId, event);
    if (this.#ended) client.link.event(this.runId, null);
    else this.#followers.add(client);
    // The page waits for the state so far: it goes now, not after the events' batching time.
    client.link.flush();
  }

  /** Page `client` is gone: nothing more is sent to it. */
  drop(client: Client): void {
    this.#followers.delete(client);
  }

  /** The run, to abort, suspend, approve or deny: refused once it ended, and before a run handed on was resumed. */
  control(): Run {
    if (this.#run && !this.#ended) return this.#run;
    const why = this.#ended ? 'it ended' : 'it is being resumed by the runner of the tab that leads now';
    throw new AmbiError('unknown_run', `Run ${this.runId} cannot be acted on: ${why}`);
  }

  #emit(event: RunEvent | null): void {
    if (this.#ended) return;
    if (event === null) {
      this.#ended = true;
      for (const client of this.#followers) client.link.event(this.runId, null);
      this.#followers.clear();
      this.onEnd(this);
      return;
    }
    this.view.see(event);
    for (const client of this.#followers) client.link.event(this.runId, event);
  }
}
