import { isAmbiError } from '../../errors/ambi-error.js';
import { errorMessage } from '../../errors/error-message.js';
import type { Engine, EngineEvent, EngineRequest } from '../types.js';
import { CASSETTE_KIND, type Cassette, type CassetteEngine, type CassetteError } from './cassette.js';
import { CallNames, eventsRecord, requestRecord } from './normalise.js';
import { PartHashes } from './part-hashes.js';

/** One request as it was made, and what came back so far. */
interface Recording {
  request: EngineRequest;
  events: EngineEvent[];
  error?: CassetteError;
  done: boolean;
  /** The request's parts being read and hashed: the response is passed on once they are. */
  hashing: Promise<void>;
}

/** An engine that records every request made through it and its response (see `Agent.make(…, { record: true })`). */
export interface RecordingEngine {
  readonly engine: Engine;
  /** Every finished request so far, in the order they were made, as a JSON cassette. */
  cassette(): Cassette;
}

/**
 * Wrap `engine` so that every request (an agent's, its leaves', any extra one) and its response
 * are recorded, in the order the requests start. A request is copied as it is made (what a
 * cassette keeps of it, see `requestRecord`); a failed one keeps its error, which replay throws again.
 */
export function recordEngine(engine: Engine, describe: Omit<CassetteEngine, 'nativeTools'>): RecordingEngine {
  const recordings: Recording[] = [];
  const hashes = new PartHashes();
  const recording: Engine = {
    get nativeTools() {
      return engine.nativeTools;
    },
    stream(request) {
      const entry: Recording = { request: snapshot(request), events: [], done: false, hashing: hashes.hashAll(request.messages) };
      recordings.push(entry);
      return recorded(engine.stream(request), entry);
    },
  };
  // What the engine can do besides streaming is passed on as it is.
  if (engine.countTokens) recording.countTokens = engine.countTokens.bind(engine);
  if (engine.contextBudget) recording.contextBudget = engine.contextBudget.bind(engine);
  if (engine.accepts) Object.assign(recording, { accepts: engine.accepts });
  return {
    engine: recording,
    cassette() {
      const names = new CallNames();
      const interactions = recordings
        .filter((entry) => entry.done || entry.error)
        .map((entry) => {
          // Named in the order a replay meets them: the request's ids, then the response's.
          const request = requestRecord(entry.request, names, hashes);
          return { request, response: entry.error ? { error: { ...entry.error } } : { events: eventsRecord(entry.events, names) } };
        });
      const parts = hashes.records();
      const cassette: Cassette = { kind: CASSETTE_KIND, version: 1, engine: { ...describe, nativeTools: engine.nativeTools }, interactions };
      if (Object.keys(parts).length > 0) cassette.parts = parts;
      return cassette;
    },
  };
}

/** The request as it is now: the loop goes on appending to its conversation, never to this copy's arrays. */
function snapshot(request: EngineRequest): EngineRequest {
  const { signal: _, ...rest } = request;
  return { ...rest, messages: [...request.messages], tools: [...request.tools] };
}

/** `stream`'s events passed on as they come, each kept in `entry`; an error or an early end kept as the response's failure. */
function recorded(stream: AsyncIterable<EngineEvent>, entry: Recording): AsyncIterable<EngineEvent> {
  return {
    [Symbol.asyncIterator]() {
      const inner = stream[Symbol.asyncIterator]();
      return {
        async next() {
          try {
            await entry.hashing;
            const step = await inner.next();
            if (step.done) entry.done = true;
            else entry.events.push(step.value);
            return step;
          } catch (error) {
            entry.error = errorRecord(error);
            throw error;
          }
        },
        async return(value?: unknown) {
          // The reader stopped before the end (the run was aborted mid-reply): replay stops it there too.
          if (!entry.done && !entry.error) entry.error = { code: 'aborted', message: 'The model request ended before its reply did' };
          await inner.return?.(value);
          return { done: true, value: value as EngineEvent };
        },
      };
    },
  };
}

function errorRecord(error: unknown): CassetteError {
  const record: CassetteError = { code: isAmbiError(error) ? error.code : 'engine_error', message: errorMessage(error) };
  const { status, retryAfterMs } = error as { status?: unknown; retryAfterMs?: unknown };
  if (typeof status === 'number') record.status = status;
  if (typeof retryAfterMs === 'number') record.retryAfterMs = retryAfterMs;
  return record;
}
