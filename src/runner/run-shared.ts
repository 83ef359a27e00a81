import type { RunScope } from '../tools/types.js';
import type { Approvals } from './approvals.js';
import type { CallIds } from './call-ids.js';

/** What a run shares with the leaves it starts: one person answers their approvals, and their call ids are unique together. */
export interface RunShared {
  approvals: Approvals;
  callIds: CallIds;
  /** A leaf's replies are held to its run's limit. */
  maxCallsPerReply: number;
}

/** Each turn's scope, with what its run shares: kept off the public RunScope, so a tool cannot answer for the person. */
const sharedByScope = new WeakMap<RunScope, RunShared>();

/** Tie `scope` to its run's shared state; returns `scope`. */
export function linkShared(scope: RunScope, shared: RunShared): RunScope {
  sharedByScope.set(scope, shared);
  return scope;
}

/** What the run `scope` belongs to shares (a leaf started from it uses the same). */
export function sharedOf(scope: RunScope): RunShared | undefined {
  return sharedByScope.get(scope);
}
