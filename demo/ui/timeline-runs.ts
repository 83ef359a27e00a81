// The runs of one timeline as its events build them: the top run and its leaves, each with its
// model turns and calls as lanes. A leaf's run is nested under the spawn_leaf call that started it,
// a Code Mode program's calls under its run_code call; `lanes()` flattens the tree into rows.
import type { Lane, Segment } from './timeline-lanes.js';

/** The key of the top run (a leaf's run is keyed by its leaf id). */
const TOP = '(top)';

/** One run of the timeline: the top run or a leaf's. */
export interface RunNode {
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

/** The runs of a timeline and their lanes, found by leaf id and call id. */
export class RunTree {
  readonly #runs = new Map<string, RunNode>();
  readonly #calls = new Map<string, Lane>();
  // spawn_leaf calls whose leaf has not shown up yet, oldest first: a leaf's first event claims the oldest.
  readonly #unclaimedSpawns: Lane[] = [];
  /** The leaf runs under each spawn_leaf call, by its id. */
  readonly #children = new Map<string, RunNode[]>();
  // The calls of each Code Mode program, by its run_code call: drawn under it.
  readonly #programCalls = new Map<string, Lane[]>();

  /** Whether the run of `leafId` (undefined: the top run) showed up already. */
  has(leafId: string | undefined): boolean {
    return this.#runs.has(leafId ?? TOP);
  }

  /** The run of `leafId` (undefined: the top run); a new one starts at `at`, thinking in its first model turn. */
  runOf(leafId: string | undefined, at: number): RunNode {
    const key = leafId ?? TOP;
    let run = this.#runs.get(key);
    if (run) return run;
    const spawn = leafId === undefined ? undefined : this.#unclaimedSpawns.shift();
    const parentDepth = spawn ? spawn.depth : leafId === undefined ? -1 : 0;
    run = { key, rows: [], turn: undefined, turns: 0, parentCallId: spawn?.id, depth: parentDepth + 1 };
    this.#runs.set(key, run);
    if (spawn) this.#children.set(spawn.id, [...(this.#children.get(spawn.id) ?? []), run]);
    this.openTurn(run, at);
    return run;
  }

  /** The run's next model turn begins at `at`. */
  openTurn(run: RunNode, at: number): void {
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
  }

  /**
   * The model spoke at `at`: its turn lasts at least until then. With no turn open (a resumed run,
   * an answer asked again), one opens from when the run began to wait on the model.
   */
  modelSpoke(run: RunNode, at: number): void {
    if (!run.turn) this.openTurn(run, run.idleSince ?? at);
    const turn = run.turn!;
    turn.end = Math.max(turn.end ?? at, at);
    turn.segments[0]!.end = turn.end;
    turn.status = 'done';
  }

  /** The lane of call `id`, made on its first event: under its program's run_code call if `program` names one, else in `run`. */
  callLane(run: RunNode, id: string, name: string, at: number, program?: string): Lane {
    let lane = this.#calls.get(id);
    if (lane) return lane;
    const parent = program === undefined ? undefined : this.#calls.get(program);
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
    this.#calls.set(id, lane);
    if (parent) this.#programCalls.set(parent.id, [...(this.#programCalls.get(parent.id) ?? []), lane]);
    else run.rows.push(lane);
    if (name === 'spawn_leaf') this.#unclaimedSpawns.push(lane);
    return lane;
  }

  /** The lane of call `id`, if one of its events came before. */
  call(id: string): Lane | undefined {
    return this.#calls.get(id);
  }

  /** A call finished: a spawn_leaf call that ended before its leaf showed up (say its snapshot could not be written) has none. */
  callFinished(lane: Lane): void {
    const waiting = this.#unclaimedSpawns.indexOf(lane);
    if (waiting >= 0) this.#unclaimedSpawns.splice(waiting, 1);
  }

  /** Every lane as a row, in the order they appeared: a program's calls under its call, a leaf's lanes under its spawn_leaf call. */
  lanes(): Lane[] {
    const lanes: Lane[] = [];
    const flatten = (run: RunNode) => {
      const withCalls = (lane: Lane) => {
        lanes.push(lane);
        for (const call of this.#programCalls.get(lane.id) ?? []) withCalls(call);
      };
      for (const row of run.rows) {
        withCalls(row);
        for (const child of this.#children.get(row.id) ?? []) flatten(child);
      }
    };
    const top = this.#runs.get(TOP);
    if (top) flatten(top);
    // Leaves whose spawn_leaf call was never seen still show, at the end.
    for (const run of this.#runs.values()) if (run !== top && run.parentCallId === undefined) flatten(run);
    return lanes;
  }
}

/** The lane's next segment begins at `at` (the open one ends there). */
export function begin(lane: Lane, kind: Segment['kind'], at: number, attempt?: number): void {
  closeOpen(lane, at);
  lane.segments.push({ kind, start: at, end: undefined, ...(attempt !== undefined ? { attempt } : {}) });
}

/** Close the lane's open segment at `at`. */
export function closeOpen(lane: Lane, at: number): void {
  const open = lane.segments.at(-1);
  if (open && open.end === undefined) open.end = at;
}

/** A run ended: its open turn and its calls that never finished end with it. */
export function endRun(run: RunNode, at: number, code: string | undefined): void {
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
