import type { RunEvent } from '../../runner/events.js';
import type { ToolResult } from '../../core/types.js';

/**
 * A batch of run events as it crosses to the page: one flat array. A call's three events
 * (tool_call, tool_started, tool_finished) go as a tag and their fields, in place of objects:
 * cloning an object costs a key string per property each way, and those three events were
 * most of what a call cost to post and to read. Any other event, or one of those whose
 * keys are not exactly the runner's (a leaf's, with its `leafId`), goes as it is, behind
 * OTHER. Field values cross as they are, so the page gets what a clone of the event gives.
 */
export type PackedEvents = unknown[];

const OTHER = 0;
const CALL = 1;
const STARTED = 2;
const FINISHED = 3;
/** A tool_finished right after its call's tool_started (the usual order): its id and name are that event's. */
const FINISHED_AFTER_START = 4;

/** Whether `object`'s own enumerable keys are exactly `keys`, in order (the order a clone keeps). */
function keysAre(object: object, keys: readonly string[]): boolean {
  const own = Object.keys(object);
  if (own.length !== keys.length) return false;
  for (let i = 0; i < keys.length; i++) if (own[i] !== keys[i]) return false;
  return true;
}

const CALL_EVENT = ['type', 'call'];
const CALL_FIELDS = ['id', 'name', 'arguments', 'idempotencyKey'];
const STARTED_EVENT = ['type', 'callId', 'name', 'attempt'];
const FINISHED_EVENT = ['type', 'result'];
const SUCCESS = ['id', 'name', 'ok', 'output', 'attempts', 'durationMs'];
const FAILURE = ['id', 'name', 'ok', 'error', 'attempts', 'durationMs'];

/** Append `events`, packed, to `into`. */
export function packEvents(events: readonly RunEvent[], into: PackedEvents): PackedEvents {
  // The tool_started packed just before, if the last one was.
  let started: Extract<RunEvent, { type: 'tool_started' }> | undefined;
  for (const event of events) {
    const previous = started;
    started = undefined;
    if (event.type === 'tool_started' && keysAre(event, STARTED_EVENT)) {
      into.push(STARTED, event.callId, event.name, event.attempt);
      started = event;
    } else if (event.type === 'tool_finished' && keysAre(event, FINISHED_EVENT) && isPlainResult(event.result)) {
      const { result } = event;
      if (previous && previous.callId === result.id && previous.name === result.name) into.push(FINISHED_AFTER_START);
      else into.push(FINISHED, result.id, result.name);
      into.push(result.ok, result.ok ? result.output : result.error, result.attempts, result.durationMs);
    } else if (event.type === 'tool_call' && keysAre(event, CALL_EVENT) && isObject(event.call) && keysAre(event.call, CALL_FIELDS)) {
      const { call } = event;
      into.push(CALL, call.id, call.name, call.arguments, call.idempotencyKey);
    } else into.push(OTHER, event);
  }
  return into;
}

function isObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null;
}

function isPlainResult(result: ToolResult): boolean {
  if (!isObject(result)) return false;
  if (result.ok === true) return keysAre(result, SUCCESS);
  return result.ok === false && keysAre(result, FAILURE);
}

/** The events `packEvents` packed, as objects with their keys in the runner's order. */
export function unpackEvents(packed: PackedEvents): RunEvent[] {
  const events: RunEvent[] = [];
  const p = packed as never[];
  let at = 0;
  // The id and name of the tool_started just before (FINISHED_AFTER_START's).
  let id = '';
  let name = '';
  while (at < packed.length) {
    switch (packed[at]) {
      case STARTED:
        id = p[at + 1]!;
        name = p[at + 2]!;
        events.push({ type: 'tool_started', callId: id, name, attempt: p[at + 3]! });
        at += 4;
        break;
      // biome-ignore lint/suspicious/noFallthroughSwitchClause: after its id and name, a result reads as one after a start
      case FINISHED:
        id = p[at + 1]!;
        name = p[at + 2]!;
        at += 2;
      case FINISHED_AFTER_START: {
        const result: ToolResult = p[at + 1]
          ? { id, name, ok: true, output: p[at + 2]!, attempts: p[at + 3]!, durationMs: p[at + 4]! }
          : { id, name, ok: false, error: p[at + 2]!, attempts: p[at + 3]!, durationMs: p[at + 4]! };
        events.push({ type: 'tool_finished', result });
        at += 5;
        break;
      }
      case CALL:
        events.push({ type: 'tool_call', call: { id: p[at + 1]!, name: p[at + 2]!, arguments: p[at + 3]!, idempotencyKey: p[at + 4]! } });
        at += 5;
        break;
      default:
        events.push(p[at + 1]!);
        at += 2;
    }
  }
  return events;
}
