import { isAmbiError } from '../errors/ambi-error.js';
import { errorMessage } from '../errors/error-message.js';
import { isThenable } from '../util/thenable.js';
import type { ArgsCheck, ArgsValidator } from '../validation/types.js';
import { decodeArguments, invalidArgumentsMessage } from './decode.js';

/** Arguments ready for the tool (defaults filled in, a Standard Schema's transforms applied), or why not. */
export type CheckedArgs = { ok: true; value: unknown } | { ok: false; message: string; code?: string };

/**
 * Stage 3 of a call: the decoded arguments checked against the tool's schema, with the
 * registry's validator (ajv's compiled one, the no-eval one, or the tool's Standard Schema).
 * `code` is `invalid_arguments` unless said: a tool whose schema could not be compiled is
 * `invalid_tool`. Never throws; synchronous unless the validator is not (a Standard Schema's may be).
 */
export function validateArguments(toolName: string, value: unknown, owned: boolean, validate: ArgsValidator): CheckedArgs | Promise<CheckedArgs> {
  let checked: ArgsCheck | Promise<ArgsCheck>;
  try {
    checked = validate(value, owned);
  } catch (error) {
    return unvalidated(toolName, error);
  }
  if (!isThenable(checked)) return worded(toolName, checked);
  return Promise.resolve(checked).then(
    (settled) => worded(toolName, settled),
    (error: unknown) => unvalidated(toolName, error),
  );
}

/** Stages 1 and 2 together: a call's raw arguments decoded and checked (what the pipeline, an edit on approval and a WebMCP offer run). */
export function checkArguments(toolName: string, raw: unknown, validate: ArgsValidator): CheckedArgs | Promise<CheckedArgs> {
  const decoded = decodeArguments(toolName, raw);
  return decoded.ok ? validateArguments(toolName, decoded.value, decoded.owned, validate) : decoded;
}

/** A validator that threw: a coded error keeps its code (a schema compiled when first needed); anything else is the arguments' problem. */
function unvalidated(toolName: string, error: unknown): CheckedArgs {
  if (isAmbiError(error)) return { ok: false, code: error.code, message: error.message };
  return { ok: false, message: invalidArgumentsMessage(toolName, [`arguments could not be validated: ${errorMessage(error)}`]) };
}

function worded(toolName: string, checked: ArgsCheck): CheckedArgs {
  return checked.ok ? checked : { ok: false, message: invalidArgumentsMessage(toolName, checked.problems) };
}
