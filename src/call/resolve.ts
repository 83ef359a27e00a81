import { isAmbiError } from '../errors/ambi-error.js';
import { errorMessage } from '../errors/error-message.js';
import { isThenable } from '../util/thenable.js';
import type { CallRun, ResolvedArguments, RunCall } from './types.js';

/**
 * Stage 2 of a call in a run: the run's extensions put values in for the references its arguments
 * make (a held value for `{ "$held": "$N" }`), before validation sees them. Undefined, at once, when
 * no extension changes anything: the decoded arguments go on as they are. Never rejects: a failure
 * to resolve ends the call with its code (a store's), and nothing runs.
 */
export function resolveArguments(call: RunCall, decoded: unknown, run: CallRun): ResolvedArguments | Promise<ResolvedArguments> | undefined {
  let resolving: ReturnType<NonNullable<CallRun['hooks']['resolve']>>;
  try {
    resolving = run.hooks.resolve?.(call, decoded);
  } catch (error) {
    return unresolved(call, error);
  }
  if (!isThenable(resolving)) return resolving;
  return Promise.resolve(resolving).then(
    (resolved) => resolved ?? { ok: true, value: decoded },
    (error: unknown) => unresolved(call, error),
  );
}

function unresolved(call: RunCall, error: unknown): ResolvedArguments {
  const code = isAmbiError(error) ? error.code : 'crashed';
  return { ok: false, code, message: `The arguments of "${call.name}" could not be resolved: ${errorMessage(error)}` };
}
