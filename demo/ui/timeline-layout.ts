// The run timeline's layout, pure data: stamped run events in, lanes and segments on one time axis
// out (timeline-lanes.ts). Each event moves its run's lanes on (timeline-runs.ts); the run's status
// and its tokens are summed on the way. No DOM here, so a Node test can check it
// (tests/node/demo-timeline.test.ts); timeline.ts draws it.
import type { StampedEvent, TimelineLayout } from './timeline-lanes.js';
import { begin, closeOpen, endRun, RunTree } from './timeline-runs.js';

/** Lay out `events` (in order of receipt); `now` ends whatever is still going. */
export function layoutTimeline(events: readonly StampedEvent[], now: number): TimelineLayout {
  const tree = new RunTree();
  let status: TimelineLayout['status'] = events.length > 0 ? 'running' : 'idle';
  let failure: string | undefined;
  let tokens: TimelineLayout['tokens'];

  for (const { at, event } of events) {
    const known = tree.has(event.leafId);
    const run = tree.runOf(event.leafId, at);
    switch (event.type) {
      case 'run_started':
        // The same run again: resumed after a reload. Its next model turn is a new row, not the one drawn before.
        if (known) run.turn = undefined;
        break;
      case 'text_delta':
      case 'format_error':
        tree.modelSpoke(run, at);
        break;
      case 'tool_call': {
        // A program's call was made by the program, not proposed by the model.
        if (event.parentCallId === undefined) tree.modelSpoke(run, at);
        const lane = tree.callLane(run, event.call.id, event.call.name, at, event.parentCallId);
        lane.arguments = event.call.arguments;
        if (event.untrusted) {
          lane.untrusted = sourceNames(event.untrusted.sources);
          if (run.turn) run.turn.untrusted = lane.untrusted;
        }
        begin(lane, 'queued', at);
        break;
      }
      case 'approval_requested': {
        const lane = tree.callLane(run, event.call.id, event.call.name, at, event.parentCallId);
        lane.arguments ??= event.call.arguments;
        lane.status = 'approval';
        begin(lane, 'approval', at);
        break;
      }
      case 'approval_resolved': {
        const lane = tree.call(event.callId);
        if (!lane) break;
        closeOpen(lane, at);
        lane.approved = event.approved;
        lane.status = event.approved ? 'queued' : 'denied';
        break;
      }
      case 'tool_started': {
        const lane = tree.callLane(run, event.callId, event.name, at, event.parentCallId);
        lane.status = 'running';
        begin(lane, 'attempt', at, event.attempt);
        break;
      }
      case 'tool_retry': {
        const lane = tree.callLane(run, event.callId, event.name, at, event.parentCallId);
        lane.marks.push({ kind: 'timeout', at, code: 'timeout' });
        lane.status = 'retrying';
        begin(lane, 'backoff', at);
        break;
      }
      case 'tool_finished': {
        const lane = tree.callLane(run, event.result.id, event.result.name, at, event.parentCallId);
        tree.callFinished(lane);
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
        if (run.turn && (event.toolCalls === 0 || run.turn.end === undefined)) tree.modelSpoke(run, at);
        run.turn = undefined;
        run.idleSince = at;
        // A turn with calls is followed by another model turn; a final answer is not.
        if (event.toolCalls > 0) tree.openTurn(run, at);
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

  const lanes = tree.lanes();
  const first = events[0]?.at ?? now;
  // Stamped on receipt, so in order: the last event is the latest.
  const last = status === 'running' ? now : (events.at(-1)?.at ?? now);
  return { start: first, end: Math.max(last, first), lanes, status, ...(failure ? { failure } : {}), ...(tokens ? { tokens } : {}) };
}

/** The names of an exposed turn's sources, each once. */
function sourceNames(sources: ReadonlyArray<{ name: string }>): string[] {
  return [...new Set(sources.map((source) => source.name))];
}
