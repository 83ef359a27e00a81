import { InvalidOptionError } from '../errors/invalid-option-error.js';
import { isStandardSchema } from '../validation/standard-schema.js';

/** Throw InvalidOptionError unless `value` (option `option`) is a whole number >= 1; undefined (the default) passes. */
export function checkCount(option: string, value: unknown): void {
  if (value === undefined || (typeof value === 'number' && Number.isInteger(value) && value >= 1)) return;
  throw new InvalidOptionError(option, `must be a whole number >= 1 (got ${typeof value === 'number' ? value : `a ${typeof value}`})`);
}

/** Throw InvalidOptionError unless `value` (option `option`) is a whole number >= 0; undefined (the default) passes. */
export function checkCountFromZero(option: string, value: unknown): void {
  if (value === undefined || (typeof value === 'number' && Number.isInteger(value) && value >= 0)) return;
  throw new InvalidOptionError(option, `must be a whole number >= 0 (got ${typeof value === 'number' ? value : `a ${typeof value}`})`);
}

/** The options of a run that are checked where the run is started, in-process or on the page. */
export interface CheckedRunOptions {
  maxIterations?: number | undefined;
  maxCallsPerReply?: number | undefined;
  maxOutputRetries?: number | undefined;
  maxTokens?: number | undefined;
  conversation?: string | undefined;
  output?: unknown;
  tracer?: unknown;
}

/** Refuse a run's options before it takes a lock or a slot: counts >= 1, and a conversation id that names something. */
export function checkRunOptions(options: CheckedRunOptions): void {
  checkCount('maxIterations', options.maxIterations);
  checkCount('maxCallsPerReply', options.maxCallsPerReply);
  checkCountFromZero('maxOutputRetries', options.maxOutputRetries);
  checkCount('maxTokens', options.maxTokens);
  checkTracer(options.tracer);
  checkOutputShape(options.output);
  const { conversation } = options;
  // '' would take a lock and store nothing under a name nobody can ask for again.
  if (conversation === undefined || (typeof conversation === 'string' && conversation !== '')) return;
  throw new InvalidOptionError(
    'conversation',
    `must be a non-empty string (got ${typeof conversation === 'string' ? 'an empty one' : `a ${typeof conversation}`})`,
  );
}

/** Refuse a conversation id that a resume or its pending approvals cannot name: one is required there. */
export function checkResumed(conversation: unknown): void {
  if (typeof conversation === 'string' && conversation !== '') return;
  throw new InvalidOptionError(
    'conversation',
    `a resume needs a non-empty conversation id (got ${typeof conversation === 'string' ? 'an empty one' : `a ${typeof conversation}`})`,
  );
}

/**
 * Refuse an `output` that is not a schema at all (a number, an array, null), where the run is
 * started, in both realms. Whether a JSON Schema compiles is known when the run starts: it then
 * rejects with `invalid_option`, before any request.
 */
export function checkOutputShape(output: unknown): void {
  if (output === undefined || isStandardSchema(output) || (typeof output === 'object' && output !== null && !Array.isArray(output))) return;
  const got = output === null ? 'null' : Array.isArray(output) ? 'an array' : `a ${typeof output}`;
  throw new InvalidOptionError('output', `must be a JSON Schema object or a Standard Schema (got ${got})`);
}

/** Refuse a `tracer` that is not one (it must have `startSpan`), where the run is started. */
function checkTracer(tracer: unknown): void {
  if (tracer === undefined) return;
  if (typeof tracer === 'object' && tracer !== null) {
    try {
      if (typeof (tracer as { startSpan?: unknown }).startSpan === 'function') return;
    } catch {
      // A tracer that throws when read is the tracing's failure, never the run's (see the traces extension).
      return;
    }
  }
  throw new InvalidOptionError('tracer', 'must be an OpenTelemetry Tracer (an object with startSpan)');
}
