// What a call goes through the pipeline with: its options, and, when a run makes it, the run's side.
import type { CallTarget, ToolCall, ToolResult } from '../core/types.js';
import type { ApprovalStore } from '../store/approval-types.js';
import type { ToolCallJournal } from '../store/types.js';
import type { CallHandle, OnToolError, RunScope } from '../tools/types.js';
import type { RunEvent, UntrustedContext } from '../core/run.js';
import type { ApprovalDecision, Approvals } from './approvals.js';
import type { Limiter } from '../util/limiter.js';

/** Options for one `ToolManager.execute`. */
export interface ExecuteOptions {
  /** Aborting it ends the call as `aborted`, with no retry. */
  signal?: AbortSignal;
  /** The key every attempt gets (default: the call's own `idempotencyKey`, which the runner sets; else a fresh one per call). */
  idempotencyKey?: string;
  /** Called as each attempt starts (1-based). */
  onAttempt?: (attempt: number) => void;
  /** Called when a timed-out attempt will be retried after `delayMs`. */
  onRetry?: (info: { attempt: number; nextAttempt: number; delayMs: number }) => void;
  /** The run the call belongs to, handed to the tool as `ctx.run`. */
  scope?: RunScope;
  /** The run's side of the call, when a ChatRunner makes it: its policy, slots, journal and events (see CallRun). */
  run?: CallRun;
  /** Told what the tool threw when it failed of itself (see OnToolError); default: the run's. */
  onToolError?: OnToolError;
}

/**
 * What a run gives each of its calls: the stages of the pipeline that a call outside a run
 * skips (policy, slots, journal) read it, and its events go to the run's stream.
 */
export interface CallRun {
  readonly runId: string;
  /** The run's signal: aborting it ends a waiting call unstarted and a running one `aborted`. */
  readonly signal: AbortSignal;
  emit(event: RunEvent): void;
  /** The run's own limit, then the shared budget, if any. */
  readonly limiters: readonly Limiter[];
  /** Where calls wait for a person's decision (a run's and its leaves'). */
  readonly approvals: Approvals;
  /** Records journalled calls before and after they run. */
  readonly journal?: ToolCallJournal;
  /** The conversation the run continues, and where its approvals are kept, if stored. */
  readonly conversation?: string;
  readonly approvalStore?: ApprovalStore;
  /** The run's extensions' say on each call (see RunExtension.beforeCall / afterCall). */
  readonly hooks: CallHooks;
  /** The agent's `onToolError`, if it has one. */
  readonly onToolError?: OnToolError;
}

/**
 * How the run's extensions take part in a call: the resolve stage asks `resolve`, the policy stage
 * asks `before`, the result stage gives `after` the result.
 */
export interface CallHooks {
  /**
   * The decoded arguments with what they refer to put in (held values), or why the call ends;
   * undefined (not a promise) when nothing changes them.
   */
  resolve?(call: RunCall, args: unknown): ResolvedArguments | Promise<ResolvedArguments | undefined> | undefined;
  /** Undefined (not a promise) when no extension takes part: the call is decided without waiting. */
  before(call: RunCall): Promise<CallVerdict | undefined> | undefined;
  after(call: RunCall, result: ToolResult): ToolResult | Promise<ToolResult>;
}

/** What the resolve stage makes of a call's arguments: those to validate, or why the call ends there (nothing runs). */
export type ResolvedArguments = { ok: true; value: unknown } | { ok: false; code: string; message: string };

/** A call as a run makes it: its id is the run's and its idempotency key is set; `handle`: what it left running before a reload (a resumed call). */
export type RunCall = ToolCall & { idempotencyKey: string; handle?: CallHandle };

/**
 * What the policy stage decides for one call. `run`: go on, as the tool's own rule says (its
 * `because` and `standing`, if given, hold should that rule ask). `ask`: a person decides first
 * (`because` says why beyond the tool's own rule, and travels on `approval_requested`).
 * `refuse`: it does not run, and its result says why. `settled`: its result is known without
 * running it (a resumed call's recorded result). `decided`: a person's decision, given before.
 * `target` on `ask` and `decided`: where the call was proposed to act, as recorded before (a
 * resumed call keeps the page it was proposed for; see `Tool.target`). `handle` on `decided`: the
 * call started before a reload and left this running (a server's task or question): it goes on with it.
 */
export type CallVerdict =
  | { kind: 'run'; because?: AskContext; standing?: StandingScope }
  | { kind: 'ask'; because?: AskContext; standing?: StandingScope; target?: CallTarget }
  | { kind: 'refuse'; code: string; message: string }
  | { kind: 'settled'; result: ToolResult }
  | { kind: 'decided'; decision: ApprovalDecision; target?: CallTarget; handle?: CallHandle };

/** What `approval_requested` says besides the call: why a person is asked beyond the tool's own rule. */
export interface AskContext {
  untrusted?: UntrustedContext;
}

/** Which standing decisions may decide a call: all of the tool's, or only those given under the same condition (`tainted`). */
export interface StandingScope {
  tainted: boolean;
}
