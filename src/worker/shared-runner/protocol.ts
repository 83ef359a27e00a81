// Wire types of a shared runner (`createWorkerRunner({ shared: true })`): who a page is, what
// `runner.runs()` lists, and what a page asks a SharedWorker first (lead-protocol.ts: what
// crosses where one tab leads).
import type { PendingApproval } from '../../store/approval-types.js';

/**
 * Who a connection to a shared runner is: `pageId` names one `createWorkerRunner` of one page (a
 * Web Lock of that name is held while it lives); `tabId` the tab it lives in, the same across a
 * same-origin navigation or a reload (kept in the tab's `sessionStorage`).
 */
export interface PageIdentity {
  pageId: string;
  tabId: string;
}

/**
 * How a page makes its runner worker (`createWorkerRunner({ worker })`): asked for a `'shared'`
 * one (a SharedWorker) by a shared runner where the browser has them, else for a `'dedicated'`
 * one (a Worker): a runner of the page's own, or the one of the tab that leads the origin.
 */
export type RunnerWorkerFactory = (kind: 'shared' | 'dedicated') => Worker | SharedWorker;

/** A run going on in the origin's runner, as `runner.runs()` lists it. */
export interface RunInfo {
  runId: string;
  /** The conversation it continues, if it was given one. */
  conversation?: string;
  /** `waiting`: at least one of its calls waits for a person; `running` otherwise. */
  status: 'running' | 'waiting';
  /** The calls that wait for a person's decision (`approval_requested` not yet answered), oldest first. */
  waiting: PendingApproval[];
}

/** What a page posts on a SharedWorker's port before anything else, and its answer: can this worker start workers of its own? */
export const PROBE = 'ambi-web:probe';
export interface ProbeAnswer {
  'ambi-web:probe': { nestedWorkers: boolean };
}

/** The Web Lock a page holds while it lives (its name ends with the page's `pageId`): the runner learns the page is gone when it is granted the lock. */
export const PAGE_LOCK = 'ambi-web:page:';
