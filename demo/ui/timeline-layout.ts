// The run timeline's layout, pure data: stamped run events in, lanes and segments on one time axis out.
// No DOM here, so a Node test can check it (tests/node/demo-timeline.test.ts); timeline.ts draws it.
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

interface RunNode {
  key: string;
  /** Lanes and leaf runs in the order they appeared. */
  rows: Lane[];
  turn: Lane | undefined;
  turns: number;
  parentCallId: string | undefined;
  depth: number;
  /** Since when the run waits on the model with no turn drawn: the last result, or the end of the last turn. */
  idleSince?: number;
}

const TOP = '(top)';

/** Lay out `events` (in order of receipt); `now` ends whatever is still going. */
export function layoutTimeline(events: readonly StampedEvent[], now: number): TimelineLayout {
  const runs = new Map<string, RunNode>();
  const calls = new Map<string, Lane>();
  // spawn_leaf calls whose leaf has not shown up yet, oldest first: a leaf's first event claims the oldest.
  const unclaimedSpawns: Lane[] = [];
  const children = new Map<string, RunNode[]>();
  // The calls of each Code Mode program, by its run_code call: drawn under it.
  const programCalls = new Map<string, Lane[]>();
  let status: TimelineLayout['status'] = events.length > 0 ? 'running' : 'idle';
  let failure: string | undefined;
  let tokens: TimelineLayout['tokens'];

  const runOf = (leafId: string | undefined, at: number): RunNode => {
    const key = leafId ?? TOP;
    let run = runs.get(key);
    if (run) return run;
    const spawn = leafId === undefined ? undefined : unclaimedSpawns.shift();
    const parentDepth = spawn ? spawn.depth : leafId === undefined ? -1 : 0;
    run = { key, rows: [], turn: undefined, turns: 0, parentCallId: spawn?.id, depth: parentDepth + 1 };
    runs.set(key, run);
    if (spawn) children.set(spawn.id, [...(children.get(spawn.id) ?? []), run]);
    openTurn(run, at);
    return run;
  };
  const openTurn = (run: RunNode, at: number) => {
    run.turns++;
    const turn: Lane = {
      id: `turn:${run.key}:${run.turns}`,
      kind: 'model',
      name: `model turn ${run.turns}`,
      leafId: run.key === TOP ? undefined : run.key,
      depth: run.depth,
      parentCallId: run.parentCallId,
      status: 'thinking',
      start: at,
      end: undefined,
      segments: [{ kind: 'model', start: at, end: undefined }],
      marks: [],
    };
    run.turn = turn;
    run.rows.push(turn);
  };
  // The model spoke at `at`: its turn lasts at least until then. With no turn open (a resumed run,
  // an answer asked again), one opens from when the run began to wait on the model.
  const modelSpoke = (run: RunNode, at: number) => {
    if (!run.turn) openTurn(run, run.idleSince ?? at);
    const turn = run.turn!;
    turn.end = Math.max(turn.end ?? at, at);
    turn.segments[0]!.end = turn.end;
    turn.status = 'done';
  };
  const callLane = (run: RunNode, id: string, name: string, at: number, program?: string): Lane => {
    let lane = calls.get(id);
    if (lane) return lane;
    const parent = program === undefined ? undefined : calls.get(program);
    lane = {
      id,
      kind: 'call',
      name,
      leafId: run.key === TOP ? undefined : run.key,
      depth: parent ? parent.depth + 1 : run.depth,
      parentCallId: program ?? run.parentCallId,
      status: 'queued',
      start: at,
      end: undefined,
      segments: [],
      marks: [],
    };
    calls.set(id, lane);
    if (parent) programCalls.set(parent.id, [...(programCalls.get(parent.id) ?? []), lane]);
    else run.rows.push(lane);
    if (name === 'spawn_leaf') unclaimedSpawns.push(lane);
    return lane;
  };
  const begin = (lane: Lane, kind: Segment['kind'], at: number, attempt?: number) => {
    closeOpen(lane, at);
    lane.segments.push({ kind, start: at, end: undefined, ...(attempt !== undefined ? { attempt } : {}) });
  };

  for (const { at, event } of events) {
    const known = runs.has(event.leafId ?? TOP);
    const run = runOf(event.leafId, at);
    switch (event.type) {
      case 'run_started':
        // The same run again: resumed after a reload. Its next model turn is a new row, not the one drawn before.
        if (known) run.turn = undefined;
        break;
      case 'text_delta':
      case 'format_error':
        modelSpoke(run, at);
        break;
      case 'tool_call': {
        // A program's call was made by the program, not proposed by the model.
        if (event.parentCallId === undefined) modelSpoke(run, at);
        const lane = callLane(run, event.call.id, event.call.name, at, event.parentCallId);
        lane.arguments = event.call.arguments;
        if (event.untrusted) {
          lane.untrusted = sourceNames(event.untrusted.sources);
          if (run.turn) run.turn.untrusted = lane.untrusted;
        }
        begin(lane, 'queued', at);
        break;
      }
      case 'approval_requested': {
        const lane = callLane(run, event.call.id, event.call.name, at, event.parentCallId);
        lane.arguments ??= event.call.arguments;
        lane.status = 'approval';
        begin(lane, 'approval', at);
        break;
      }
      case 'approval_resolved': {
        const lane = calls.get(event.callId);
        if (!lane) break;
        closeOpen(lane, at);
        lane.approved = event.approved;
        lane.status = event.approved ? 'queued' : 'denied';
        break;
      }
      case 'tool_started': {
        const lane = callLane(run, event.callId, event.name, at, event.parentCallId);
        lane.status = 'running';
        begin(lane, 'attempt', at, event.attempt);
        break;
      }
      case 'tool_retry': {
        const lane = callLane(run, event.callId, event.name, at, event.parentCallId);
        lane.marks.push({ kind: 'timeout', at, code: 'timeout' });
        lane.status = 'retrying';
        begin(lane, 'backoff', at);
        break;
      }
      case 'tool_finished': {
        const lane = callLane(run, event.result.id, event.result.name, at, event.parentCallId);
        // A spawn_leaf call that ended before its leaf showed up (say its snapshot could not be written) has none.
        const waiting = unclaimedSpawns.indexOf(lane);
        if (waiting >= 0) unclaimedSpawns.splice(waiting, 1);
        closeOpen(lane, at);
        lane.result = event.result;
        lane.end = at;
        if (event.parentCallId === undefined) run.idleSince = at;
        if (event.result.ok) lane.status = 'done';
        else {
          const { code } = event.result.error;
          lane.status = code === 'denied' ? 'denied' : 'failed';
          lane.marks.push({ kind: code === 'timeout' ? 'timeout' : 'failure', at, code });
        }
        break;
      }
      case 'usage':
        tokens ??= { total: 0, requests: 0, estimated: false };
        tokens.total += event.usage.totalTokens;
        tokens.requests++;
        tokens.estimated ||= event.usage.estimated === true;
        break;
      case 'iteration_finished':
        if (event.untrusted && run.turn) run.turn.untrusted = sourceNames(event.untrusted.sources);
        // An answer ends with its turn; a turn with calls ended with its last call, not after them.
        if (run.turn && (event.toolCalls === 0 || run.turn.end === undefined)) modelSpoke(run, at);
        run.turn = undefined;
        run.idleSince = at;
        // A turn with calls is followed by another model turn; a final answer is not.
        if (event.toolCalls > 0) openTurn(run, at);
        break;
      case 'run_finished':
      case 'run_failed':
        endRun(run, at, event.type === 'run_failed' ? event.error.code : undefined);
        if (event.leafId === undefined) {
          status = event.type === 'run_finished' ? 'finished' : 'failed';
          if (event.type === 'run_failed') failure = event.error.code;
        }
        break;
      default:
        break;
    }
  }

  const lanes: Lane[] = [];
  const flatten = (run: RunNode) => {
    const withCalls = (lane: Lane) => {
      lanes.push(lane);
      for (const call of programCalls.get(lane.id) ?? []) withCalls(call);
    };
    for (const row of run.rows) {
      withCalls(row);
      for (const child of children.get(row.id) ?? []) flatten(child);
    }
  };
  const top = runs.get(TOP);
  if (top) flatten(top);
  // Leaves whose spawn_leaf call was never seen still show, at the end.
  for (const run of runs.values()) if (run !== top && run.parentCallId === undefined) flatten(run);

  const first = events[0]?.at ?? now;
  // Stamped on receipt, so in order: the last event is the latest.
  const last = status === 'running' ? now : (events.at(-1)?.at ?? now);
  return { start: first, end: Math.max(last, first), lanes, status, ...(failure ? { failure } : {}), ...(tokens ? { tokens } : {}) };
}

/** The names of an exposed turn's sources, each once. */
function sourceNames(sources: ReadonlyArray<{ name: string }>): string[] {
  return [...new Set(sources.map((source) => source.name))];
}

/** Close the lane's open segment at `at`. */
function closeOpen(lane: Lane, at: number): void {
  const open = lane.segments.at(-1);
  if (open && open.end === undefined) open.end = at;
}

/** A run ended: its open turn and its calls that never finished end with it. */
function endRun(run: RunNode, at: number, code: string | undefined): void {
  for (const lane of run.rows) {
    if (lane.end !== undefined && lane.kind === 'call') continue;
    if (lane.kind === 'model') {
      // A turn cut short by the end of the run: it ends there; a closed one keeps its end.
      if (lane.end === undefined) {
        lane.end = at;
        lane.segments[0]!.end = at;
        lane.status = code ? 'failed' : 'done';
      }
      continue;
    }
    closeOpen(lane, at);
    lane.end = at;
    lane.status = 'failed';
    lane.marks.push({ kind: 'failure', at, code: code ?? 'unfinished' });
  }
  run.turn = undefined;
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
