import { AmbiError } from '../errors/ambi-error.js';
import { InvalidOptionError } from '../errors/invalid-option-error.js';
import type { Run } from '../runner/run-options.js';
import { RunSegments } from '../ui/run-segments.js';
import { AG_UI_PROTOCOL_VERSION, type AgUiEvent, type AgUiInterrupt, type AgUiResumeEntry } from './events.js';
import { AgUiWriter, type AgUiThread } from './event-writer.js';
import { readResume } from './resume-entries.js';

/** What `toAgUiEvents` takes besides the run. */
export interface AgUiEventsOptions {
  /** The AG-UI thread (default: the run's id); the conversation id is the natural one. */
  threadId?: string;
  /** The first AG-UI run's id (default: the run's id), as `RunAgentInput.runId` gives it. */
  runId?: string;
}

/**
 * A run's events as AG-UI runs. Iterating it gives the first AG-UI run, which ends with
 * RUN_FINISHED (success; an interrupt outcome when calls wait for a decision; cancelled when
 * aborted) or RUN_ERROR. After an interrupt, `resume(entries)` gives the next AG-UI run: it
 * applies the entries (`approve` / `deny`, `editedArgs` as edited arguments) and goes on.
 */
export interface AgUiRun extends AsyncIterable<AgUiEvent> {
  readonly threadId: string;
  /** The interrupts the last AG-UI run ended with, still unanswered (empty when it did not end with one). */
  readonly interrupts: readonly AgUiInterrupt[];
  /**
   * Answer every open interrupt and get the AG-UI run that continues: the entries apply at once.
   * A resume AG-UI's rules refuse (an unknown id, an interrupt left out, a payload that is not
   * `{ approved }`) gives an AG-UI run of RUN_STARTED then RUN_ERROR, decides nothing, and
   * leaves the interrupts open.
   */
  resume(entries: readonly AgUiResumeEntry[], options?: { runId?: string }): AsyncIterable<AgUiEvent>;
}

/** AG-UI 1.0 events from a run (its `events` are read here: iterate only this). Options that are not options throw `invalid_option`, the run left unread. */
export function toAgUiEvents(run: Run, options: AgUiEventsOptions = {}): AgUiRun {
  checkIds(options, 'toAgUiEvents', ['threadId', 'runId']);
  return new AgUiRuns(run, options);
}

/** Refuse options that are not an object, or whose ids are not strings: AG-UI's ids are strings, and a UI would get events its schemas refuse. */
function checkIds(options: unknown, where: string, ids: readonly string[]): void {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) throw new InvalidOptionError(where, 'options must be an object');
  for (const id of ids) {
    const value = (options as Record<string, unknown>)[id];
    if (value !== undefined && typeof value !== 'string') throw new InvalidOptionError(id, `must be a string (got ${typeof value})`);
  }
}

class AgUiRuns implements AgUiRun {
  readonly #segments: RunSegments;
  readonly #thread: AgUiThread;
  readonly #firstRunId: string;
  #open: AgUiInterrupt[] = [];
  #runs = 0;
  #iterated = false;

  constructor(
    private readonly run: Run,
    options: AgUiEventsOptions,
  ) {
    this.#segments = new RunSegments(run);
    this.#thread = { threadId: options.threadId ?? run.runId, turn: 1, announced: new Set() };
    this.#firstRunId = options.runId ?? run.runId;
  }

  get threadId(): string {
    return this.#thread.threadId;
  }

  get interrupts(): readonly AgUiInterrupt[] {
    return this.#open;
  }

  [Symbol.asyncIterator](): AsyncIterator<AgUiEvent> {
    if (this.#iterated) throw new AmbiError('events_busy', 'The first AG-UI run of this run was iterated already: use resume() for the next');
    this.#iterated = true;
    return this.#agUiRun(this.#firstRunId);
  }

  resume(entries: readonly AgUiResumeEntry[], options: { runId?: string } = {}): AsyncIterable<AgUiEvent> {
    const fallback = `${this.run.runId}-${++this.#runs}`;
    try {
      checkIds(options, 'resume', ['runId']);
    } catch (error) {
      return once(refused(this.#thread.threadId, fallback, error as AmbiError));
    }
    const runId = options.runId ?? fallback;
    const decisions = readResume(this.#open, entries);
    if (decisions instanceof AmbiError) return once(refused(this.#thread.threadId, runId, decisions));
    this.#open = [];
    for (const [callId, decision] of decisions) this.#segments.decide(callId, decision);
    return once(this.#agUiRun(runId));
  }

  async *#agUiRun(runId: string): AsyncGenerator<AgUiEvent, void> {
    const writer = new AgUiWriter(this.#thread, runId);
    yield* writer.take();
    for await (const item of this.#segments.next()) {
      writer.event(item);
      yield* writer.take();
      if (writer.ended || item.type === 'segment_end') break;
    }
    this.#open = writer.interrupts;
  }
}

/** An AG-UI run that refuses its input: RUN_STARTED, then RUN_ERROR with the code. */
async function* refused(threadId: string, runId: string, error: AmbiError): AsyncGenerator<AgUiEvent, void> {
  const timestamp = Date.now();
  yield { type: 'RUN_STARTED', threadId, runId, protocolVersion: AG_UI_PROTOCOL_VERSION, timestamp };
  yield { type: 'RUN_ERROR', code: error.code, message: error.message, timestamp };
}

/** An async iterable over one generator: iterated once. */
function once(events: AsyncGenerator<AgUiEvent, void>): AsyncIterable<AgUiEvent> {
  let taken = false;
  return {
    [Symbol.asyncIterator]() {
      if (taken) throw new AmbiError('events_busy', 'These AG-UI events were iterated already');
      taken = true;
      return events;
    },
  };
}
