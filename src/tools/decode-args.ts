import { isThenable } from './thenable.js';
import type { ArgsCheck, ArgsValidator } from './validate-args.js';

export type DecodedArgs = { ok: true; value: unknown } | { ok: false; message: string };

const MAX_PROBLEMS = 10;
const SNIPPET = 200;

/**
 * Turn a call's raw arguments into validated args. Absent arguments mean `{}`; a
 * string is JSON the engine could not parse, or a model's double encoding.
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
  // A JSON Schema check is synchronous: no promise for it (a Standard Schema's may be one).
  const checked = validate(value, owned);
  return isThenable(checked) ? Promise.resolve(checked).then((settled) => decoded(toolName, settled)) : decoded(toolName, checked);
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
