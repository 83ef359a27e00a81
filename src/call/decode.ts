import { nestedTooDeep, TOO_DEEP } from '../validation/args-depth.js';

/** A call's arguments as a JSON value (`owned`: made here, so validation may write defaults into it), or why not. */
export type Decoded = { ok: true; value: unknown; owned: boolean } | { ok: false; message: string };

const SNIPPET = 200;

/**
 * Stage 1 of a call: its arguments as a JSON value. Absent arguments mean `{}`; a string is
 * JSON the engine could not parse, or a model's double encoding. Arguments nested more than 64
 * levels deep are refused before any validator sees them (validators recurse). Never throws,
 * whatever the arguments: a getter or proxy that throws is a refusal too.
 */
export function decodeArguments(toolName: string, raw: unknown): Decoded {
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
    if (nestedTooDeep(value)) return { ok: false, message: invalidArgumentsMessage(toolName, [TOO_DEEP]) };
  } catch {
    return { ok: false, message: invalidArgumentsMessage(toolName, ['arguments must be plain JSON']) };
  }
  return { ok: true, value, owned };
}

const MAX_PROBLEMS = 10;

/** What the model reads for arguments that failed: every problem (up to ten), in one line. */
export function invalidArgumentsMessage(toolName: string, problems: readonly string[]): string {
  const shown = problems.slice(0, MAX_PROBLEMS);
  const more = problems.length - shown.length;
  const tail = more > 0 ? `; and ${more} more` : '';
  return `Invalid arguments for "${toolName}": ${shown.join('; ')}${tail}`;
}
