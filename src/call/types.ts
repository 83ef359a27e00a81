// What a call goes through the pipeline with: its options, and, when a run makes it, the run's side.
import type { CallTarget, ToolCall, ToolResult } from '../core/types.js';
import type { ToolCallJournal } from '../store/types.js';
import type { OnToolError, RunScope } from '../tools/types.js';
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
  /** What the call's record already says, for a call an interrupted run left and a later run continues (see Recorded). */
  recorded?: Recorded;
  /**
   * Outside a run: who decides a call whose tool asks (its `needsApproval`), with the checked
   * arguments; anything but `true` (a throw too) denies it. Without it such a call outside a run is
   * not asked (a run asks its person through `approval_requested`).
   */
  approve?: (request: { name: string; arguments: unknown }) => boolean | Promise<boolean>;
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
  /** The conversation the run continues, if stored: its calls' records (asked, decided) and standing decisions are kept under it. */
  readonly conversation?: string;
  /** The run's extensions' say on each call (see RunExtension.beforeCall / afterCall). */
  readonly hooks: CallHooks;
  /** The agent's `onToolError`, if it has one. */
  readonly onToolError?: OnToolError;
  /**
   * For a call read from a reply that still streams: settles once the reply ended. Nobody is asked
   * about such a call before then (a card never shows a call of a reply the model is still writing).
   */
  readonly replyRead?: Promise<void>;
}

/**
 * How the run's extensions take part in a call: the screen stage asks `before` (with the decoded
 * arguments), the result stage gives `after` the result.
 */
export interface CallHooks {
  /** The extensions' combined verdict; undefined (not a promise) when none has a say: the call goes on without waiting. */
  before(call: RunCall, args: unknown): CallVerdict | Promise<CallVerdict | undefined> | undefined;
  /** `replyRead`: for a call read from a reply still streaming, what settles once the reply ended (handed to each `afterCall`). */
  after(call: RunCall, result: ToolResult, replyRead?: Promise<void>): ToolResult | Promise<ToolResult>;
}

/** A call as a run makes it: its id is the run's and its idempotency key is set. */
export type RunCall = ToolCall & { idempotencyKey: string };

/**
 * What an extension says of one call, in the screen stage (before validation). `run`: go on, as
 * the tool's own rule says (its `because` and `standing`, if given, hold should that rule ask).
 * `ask`: a person decides first, in the policy stage (`because` says why beyond the tool's own
 * rule, and travels on `approval_requested`). `refuse`: it does not run, and its result says why
 * (`code`, `message`). `arguments` on `run` and `ask`: the arguments to validate and run with
 * instead of the decoded ones (what they refer to put in: a held value for `{ "$held": "$N" }`).
 */
export type CallVerdict =
  | { kind: 'run'; arguments?: unknown; because?: AskContext; standing?: StandingScope }
  | { kind: 'ask'; arguments?: unknown; because?: AskContext; standing?: StandingScope }
  | { kind: 'refuse'; code: string; message: string };

/**
 * What a call's record already says when the call runs again after an interruption (a reload, a
 * suspend), as the run that continues it read it: the place it was proposed to act on, and the
 * person's say. A call is never asked twice for one decision, and acts only where it was proposed.
 */
export interface Recorded {
  /** Where the call was proposed to act (see `Tool.target`): it acts there or nowhere. */
  target?: CallTarget;
  /** A person's decision on this very call (and the tool as it is now), taken before the interruption. */
  decision?: ApprovalDecision;
  /** A person was asked and never answered (or decided on another version of the tool): asked again, whatever the tool's rule says now. */
  asked?: boolean;
}

/** What `approval_requested` says besides the call: why a person is asked beyond the tool's own rule. */
export interface AskContext {
  untrusted?: UntrustedContext;
}

/** Which standing decisions may decide a call: all of the tool's, or only those given under the same condition (`tainted`). */
export interface StandingScope {
  tainted: boolean;
}
