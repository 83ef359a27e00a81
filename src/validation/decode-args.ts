import { isAmbiError } from '../errors/ambi-error.js';
import { errorMessage } from '../errors/error-message.js';
import { nestedTooDeep, TOO_DEEP } from './args-depth.js';
import { isThenable } from '../util/thenable.js';
import type { ArgsCheck, ArgsValidator } from './types.js';

/** Validated args, or why not: `code` is `invalid_arguments` unless said (a tool whose schema could not be compiled: `invalid_tool`). */
export type DecodedArgs = { ok: true; value: unknown } | { ok: false; message: string; code?: string };

const MAX_PROBLEMS = 10;
const SNIPPET = 200;

/**
 * Turn a call's raw arguments into validated args. Absent arguments mean `{}`; a
 * string is JSON the engine could not parse, or a model's double encoding. Arguments
 * nested more than 64 levels deep are refused before any validator sees them. Never
 * throws nor rejects, whatever the arguments: a failure is a DecodedArgs.
 */
export function decodeArgs(toolName: string, raw: unknown, validate: ArgsValidator): DecodedArgs | Promise<DecodedArgs> {
  // `owned`: a value made here, which nothing else holds (the caller's object stays the caller's).
  let value: unknown = raw;
  let owned = false;
  if (raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '')) {
    value = {};
    owned = true;
  } else if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
      owned = true;
    } catch {
      const snippet = raw.length > SNIPPET ? `${raw.slice(0, SNIPPET)}…` : raw;
      return { ok: false, message: `Invalid arguments for "${toolName}": not valid JSON: ${snippet}` };
    }
  }
  try {
    if (nestedTooDeep(value)) return refused(toolName, TOO_DEEP);
  } catch {
    return refused(toolName, 'arguments must be plain JSON'); // a getter or proxy that throws
  }
  let checked: ArgsCheck | Promise<ArgsCheck>;
  try {
    checked = validate(value, owned);
  } catch (error) {
    return unvalidated(toolName, error);
  }
  // A JSON Schema check is synchronous: no promise for it (a Standard Schema's may be one).
  if (!isThenable(checked)) return decoded(toolName, checked);
  return Promise.resolve(checked).then(
    (settled) => decoded(toolName, settled),
    (error: unknown) => unvalidated(toolName, error),
  );
}

function refused(toolName: string, problem: string): DecodedArgs {
  return { ok: false, message: invalidArgumentsMessage(toolName, [problem]) };
}

/** A validator that threw: a coded error keeps its code (a schema compiled when first needed); anything else is the arguments' problem. */
function unvalidated(toolName: string, error: unknown): DecodedArgs {
  if (isAmbiError(error)) return { ok: false, code: error.code, message: error.message };
  return refused(toolName, `arguments could not be validated: ${errorMessage(error)}`);
}

function decoded(toolName: string, checked: ArgsCheck): DecodedArgs {
  return checked.ok ? checked : { ok: false, message: invalidArgumentsMessage(toolName, checked.problems) };
}

/** What the model reads for arguments that failed validation: every problem (up to ten), in one line. */
export function invalidArgumentsMessage(toolName: string, problems: readonly string[]): string {
  const shown = problems.slice(0, MAX_PROBLEMS);
  const more = problems.length - shown.length;
  const tail = more > 0 ? `; and ${more} more` : '';
  return `Invalid arguments for "${toolName}": ${shown.join('; ')}${tail}`;
}
