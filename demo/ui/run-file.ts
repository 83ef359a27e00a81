// A run as a file: the timeline's events with their times, and what the runner recorded of the
// model's traffic (a cassette, for replayEngine). Pure data, no DOM: tests/node/demo-run-file.test.ts
// reads hostile files with it. A file opened here is someone else's data: every event is checked
// for what the timeline reads of it, and one that does not fit is left out (and counted).
import type { Cassette, RunEvent } from 'ambi-web/worker';
import type { StampedEvent } from './timeline-lanes.js';

export const RUN_FILE_KIND = 'ambi-web-run';
/** Larger files are refused before they are read. */
export const MAX_RUN_FILE_BYTES = 20 * 1024 * 1024;
const MAX_EVENTS = 200_000;

export interface RunFile {
  kind: typeof RUN_FILE_KIND;
  version: 1;
  /** `at`: milliseconds since the run's first event. */
  events: StampedEvent[];
  cassette?: Cassette;
}

/** What was read of a run file: its events (those that fit), how many were left out, and its cassette's size. */
export interface ReadRun {
  events: StampedEvent[];
  dropped: number;
  /** Model requests in the file's cassette (0 without one). */
  requests: number;
}

/** A run's events (as the timeline stamped them) and cassette, as a file: times from the first event. */
export function runFile(events: readonly StampedEvent[], cassette?: Cassette): RunFile {
  const start = events[0]?.at ?? 0;
  const file: RunFile = { kind: RUN_FILE_KIND, version: 1, events: events.map(({ at, event }) => ({ at: at - start, event })) };
  if (cassette) file.cassette = cassette;
  return file;
}

/** Read a run file's text; throws an Error that says what is wrong with it as a whole. */
export function readRunFile(text: string): ReadRun {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error('This is not a run file: it is not JSON');
  }
  const file = record(parsed);
  if (!file || file.kind !== RUN_FILE_KIND) throw new Error(`This is not a run file: its "kind" is not "${RUN_FILE_KIND}"`);
  if (file.version !== 1) throw new Error('This run file has a version this demo does not read');
  if (!Array.isArray(file.events)) throw new Error('This run file has no list of events');
  if (file.events.length > MAX_EVENTS) throw new Error(`This run file holds more than ${MAX_EVENTS} events`);
  const events: StampedEvent[] = [];
  let last = 0;
  for (const item of file.events) {
    const stamped = record(item);
    const at = stamped?.at;
    if (typeof at !== 'number' || !Number.isFinite(at) || !fits(stamped?.event)) continue;
    // In order, as the timeline expects them: an earlier time after a later one is taken as the later.
    last = Math.max(last, at);
    events.push({ at: last, event: stamped!.event as RunEvent });
  }
  const interactions = record(file.cassette)?.interactions;
  return { events, dropped: file.events.length - events.length, requests: Array.isArray(interactions) ? interactions.length : 0 };
}

const record = (value: unknown): Record<string, unknown> | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
const text = (value: unknown) => typeof value === 'string';
const count = (value: unknown) => typeof value === 'number' && Number.isFinite(value);

/** Whether `value` is an event with what the timeline reads of it. */
function fits(value: unknown): boolean {
  const event = record(value);
  if (!event || !text(event.type) || (event.leafId !== undefined && !text(event.leafId))) return false;
  const call = record(event.call);
  switch (event.type) {
    case 'tool_call':
    case 'approval_requested':
      return !!call && text(call.id) && text(call.name);
    case 'approval_resolved':
      return text(event.callId) && typeof event.approved === 'boolean';
    case 'tool_started':
    case 'tool_retry':
      return text(event.callId) && text(event.name) && count(event.attempt);
    case 'tool_finished':
      return result(event.result);
    case 'iteration_finished':
      return count(event.toolCalls);
    case 'usage':
      return usage(event.usage);
    case 'run_finished': {
      const finished = record(event.result);
      return !!finished && (finished.usage === undefined || usage(finished.usage));
    }
    case 'run_failed': {
      const error = record(event.error);
      return !!error && text(error.code) && text(error.message);
    }
    case 'text_delta':
      return text(event.text);
    default:
      // Events the timeline does not draw (run_started, warning, …) are kept as they are.
      return true;
  }
}

function result(value: unknown): boolean {
  const r = record(value);
  if (!r || !text(r.id) || !text(r.name) || typeof r.ok !== 'boolean' || !count(r.attempts) || !count(r.durationMs)) return false;
  if (r.ok) return true;
  const error = record(r.error);
  return !!error && text(error.code) && text(error.message);
}

function usage(value: unknown): boolean {
  const u = record(value);
  return !!u && count(u.promptTokens) && count(u.completionTokens) && count(u.totalTokens);
}
