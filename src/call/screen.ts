import { isAmbiError } from '../errors/ambi-error.js';
import { errorMessage } from '../errors/error-message.js';
import { isThenable } from '../util/thenable.js';
import type { CallRun, CallVerdict, RunCall } from './types.js';

/**
 * Stage 2 of a call in a run: the run's extensions screen it, before validation, with its decoded
 * arguments (RunExtension.beforeCall): they may put in what the arguments refer to (a held value
 * for `{ "$held": "$N" }`: `arguments` on the verdict), refuse the call, or say a person must see
 * it (weighed in the policy stage, once the arguments are valid). Undefined, at once, when no
 * extension has a say. Never rejects: an extension that throws ends the call with its error's
 * code (a store's), and nothing runs.
 */
export function screen(call: RunCall, decoded: unknown, run: CallRun): CallVerdict | Promise<CallVerdict | undefined> | undefined {
  let said: ReturnType<CallRun['hooks']['before']>;
  try {
    said = run.hooks.before(call, decoded);
  } catch (error) {
    return unscreened(call, error);
  }
  if (!isThenable(said)) return said;
  return Promise.resolve(said).catch((error: unknown) => unscreened(call, error));
}

function unscreened(call: RunCall, error: unknown): CallVerdict {
  const code = isAmbiError(error) ? error.code : 'crashed';
  return { kind: 'refuse', code, message: `The call of "${call.name}" could not be screened: ${errorMessage(error)}` };
}
