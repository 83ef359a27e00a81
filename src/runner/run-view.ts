import type { RunEvent } from '../core/run.js';
import type { ToolResult } from '../core/types.js';
import type { RunCall } from '../call/types.js';

type Asked = Extract<RunEvent, { type: 'approval_requested' }>;

/**
 * What a run has done so far, read-only: for its extensions (`RunSetup.view`) and for whoever
 * follows the run without having seen all its events (a page attaching to a run in progress).
 * Kept from the run's own events as they are emitted (its leaves' apart), and from its results.
 */
export interface RunView {
  readonly runId: string;
  /** Model turns started so far. */
  readonly iteration: number;
  /** Every result of the run so far, in call order (what `RunResult.toolResults` will hold). */
  readonly toolResults: readonly ToolResult[];
  /** How many messages the stored conversation held when the run started: where the run's own begin. */
  readonly startLength: number;
  /** Calls proposed and not finished yet, by id. */
  readonly inFlight: ReadonlyMap<string, RunCall>;
  /** Calls waiting for a person, by id: the `approval_requested` each went out with. */
  readonly waiting: ReadonlyMap<string, Asked>;
}

/** A run's view, kept by the run: `take` each event; the loop counts turns, pushes results, and adds the calls it continues. */
export class RunState implements RunView {
  iteration = 0;
  readonly toolResults: ToolResult[] = [];
  startLength = 0;
  readonly inFlight = new Map<string, RunCall>();
  readonly waiting = new Map<string, Asked>();

  constructor(readonly runId: string) {}

  /** One of the run's events, as it is emitted (a leaf's are the leaf's business). */
  take(event: RunEvent): void {
    if (event.leafId !== undefined) return;
    switch (event.type) {
      case 'tool_call':
        this.inFlight.set(event.call.id, event.call as RunCall);
        return;
      case 'approval_requested':
        this.waiting.set(event.call.id, event);
        return;
      case 'approval_resolved':
        this.waiting.delete(event.callId);
        return;
      case 'tool_finished':
        this.inFlight.delete(event.result.id);
        this.waiting.delete(event.result.id);
        return;
    }
  }
}
