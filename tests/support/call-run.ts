// A run's side of a call, for tests that drive the call pipeline (ToolManager.execute with `run`) directly.
import { Approvals } from '../../src/call/approvals.js';
import type { CallHooks, CallRun } from '../../src/call/types.js';
import { Limiter } from '../../src/util/limiter.js';

/** Hooks that let every call run and keep every result. */
export const noHooks: CallHooks = { before: () => undefined, after: (_call, result) => result };

/** A CallRun with one slot, no extensions, a signal of its own and events dropped, unless given. */
export function callRun(given: Partial<CallRun> = {}): CallRun {
  return {
    runId: 'run-1',
    signal: new AbortController().signal,
    emit: () => {},
    limiters: [new Limiter(1)],
    approvals: new Approvals(),
    hooks: noHooks,
    ...given,
  };
}
