// What the run timeline is made of, pure data: the stamped events it is laid out from, and the
// lanes, segments and marks on one time axis it is laid out into (timeline-layout.ts). No DOM
// here, so a Node test can check it (tests/node/demo-timeline.test.ts); timeline.ts draws it.
import type { RunEvent, ToolResult } from 'ambi-web/worker';

/** A run event and when the page received it (events carry no time of their own: performance.now()). */
export interface StampedEvent {
  at: number;
  event: RunEvent;
}

/**
 * A stretch of a lane. `queued`: proposed by the model, not started yet; `approval`: waiting for
 * the person; `attempt`: the tool running (one per attempt); `backoff`: the pause before a retry;
 * `model`: a model turn. `end` undefined: still going.
 */
export interface Segment {
  kind: 'queued' | 'approval' | 'attempt' | 'backoff' | 'model';
  start: number;
  end: number | undefined;
  attempt?: number;
}

/** A point on a lane: a timed-out attempt, or the call's failure. */
export interface Mark {
  kind: 'timeout' | 'failure';
  at: number;
  code: string;
}

export type LaneStatus = 'queued' | 'approval' | 'running' | 'retrying' | 'done' | 'failed' | 'denied' | 'thinking';

/** One row: a tool call, or a model turn of the run or of a leaf. */
export interface Lane {
  /** The call's id, or `turn:<run>:<n>` for a model turn. */
  id: string;
  kind: 'call' | 'model';
  /** The tool's name, or `model turn <n>`. */
  name: string;
  /** The run the lane belongs to: undefined for the top run, else the leaf's id. */
  leafId: string | undefined;
  /** Nesting: 0 for the top run, 1 for a leaf's lanes under its spawn_leaf call, and so on. */
  depth: number;
  /** For a leaf's lanes: the spawn_leaf call they are nested under; for a Code Mode program's calls: its run_code call. */
  parentCallId: string | undefined;
  status: LaneStatus;
  start: number;
  end: number | undefined;
  segments: Segment[];
  marks: Mark[];
  arguments?: unknown;
  result?: ToolResult;
  /** Approved or denied by the person (undefined: never asked). */
  approved?: boolean;
  /**
   * A model turn whose request held untrusted content (an exposed turn), and a call it proposed
   * (tainted): the tools whose results it held.
   */
  untrusted?: string[];
}

export interface TimelineLayout {
  /** The time axis: from the first event to the last one (or `now` while something still runs). */
  start: number;
  end: number;
  lanes: Lane[];
  status: 'idle' | 'running' | 'finished' | 'failed';
  failure?: string;
  /** Tokens of every model request so far, the leaves' included (from the `usage` events); absent before the first answers. */
  tokens?: { total: number; requests: number; estimated: boolean };
}

/** What a lane's label says of it, in words. */
export function laneStatusText(lane: Lane): string {
  switch (lane.status) {
    case 'thinking':
      return 'thinking';
    case 'queued':
      return lane.approved ? 'approved' : 'proposed';
    case 'approval':
      return 'waits for approval';
    case 'running':
      return 'running';
    case 'retrying':
      return 'timed out, retrying';
    case 'done':
      return lane.kind === 'model' ? '' : 'finished';
    case 'denied':
      return 'denied';
    case 'failed':
      return `failed: ${lane.result && !lane.result.ok ? lane.result.error.code : (lane.marks.at(-1)?.code ?? 'unfinished')}`;
  }
}
