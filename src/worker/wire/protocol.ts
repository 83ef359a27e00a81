// Wire types between the page, the runner worker and dedicated tool workers, and the session messages' kinds.
import type { LeafOptions } from '../../leaf/leaf-options.js';
import type { RunOptions } from '../../runner/chat-runner.js';
import type { ApproveOptions, DenyOptions } from '../../runner/approvals.js';
import type { PendingApproval } from '../../store/approval-types.js';
import type { AbortSource } from '../../util/abort-source.js';
import type { ToolContext, ToolPolicy } from '../../tools/types.js';
import type { JsonValue, ToolDefinition } from '../../core/types.js';
import type { McpServerConfig } from '../../mcp/config.js';
import type { PackedEvents } from './event-codec.js';
import type { WireError, WireReason } from './wire-error.js';
import type { EngineConfig } from '../../engines/config.js';
import type { ContextBudget } from '../../runner/context-budget.js';
import type { ValidationMode } from '../../validation/types.js';

/** A tool as it crosses a boundary: its definition and policy; its code stays home. */
export interface ToolDescriptor extends ToolDefinition, ToolPolicy {
  /** `ask`: the tool's own realm decides from the arguments. */
  approval: 'never' | 'always' | 'ask';
}

/** The context fields that clone; cancelling travels as its own message. */
export type WireContext = Omit<ToolContext, 'signal' | 'run'>;

/** How the runner worker reaches a tool that lives elsewhere (the page, or a tool worker via the page). */
export interface ToolInvoker {
  /** May answer synchronously (a page tool that returns a plain value): the reply then goes out before anything else. */
  call(args: unknown, ctx: WireContext, abort: AbortSource): JsonValue | Promise<JsonValue>;
  /** The tool's approval rule; `abort` fires when the run no longer waits for it (the rule is stopped like a call). */
  needsApproval(args: unknown, abort: AbortSource): Promise<boolean>;
}

/** The first element of a session message: what it is. */
export const CALL = 0;
export const ASK = 1;
export const ABORT = 2;
export const EVENTS = 3;
export const DONE = 4;
export const FAILED = 5;

/**
 * The session between the page and the runner worker: tool calls, their cancels and
 * results, and batches of run events, on the worker's own channel, in order. Each is an
 * array, its kind first (Comlink's messages on the same channel are objects): an array's
 * clone writes no property names, the largest part of a small object's.
 */
export type WorkerToPage =
  | [t: typeof CALL, id: number, tool: string, args: unknown, callId: string, attempt: number, idempotencyKey: string]
  | [t: typeof ASK, id: number, tool: string, args: unknown]
  /** Ends a call or an ask. */
  | [t: typeof ABORT, id: number, reason: WireReason]
  /** Run events in the order they happened (packed, see event-codec.ts); `null` ends a run's events. */
  | [t: typeof EVENTS, events: Array<[runId: string, events: PackedEvents | null]>];

export type PageToWorker = [t: typeof DONE, id: number, value: unknown] | [t: typeof FAILED, id: number, error: WireError];

/** The runner worker's settings: `createWorkerRunner`'s options that are plain data. */
/** A runner worker's configuration: plain data, sent once when the worker starts. */
export interface RunnerConfig {
  engine: EngineConfig;
  /** Calls of one reply that run at once (default 5). */
  concurrency?: number;
  preamble?: string;
  maxResultChars?: number;
  /** IndexedDB database (in the worker) for conversations, the tool-call journal and leaf snapshots. */
  database?: string;
  /** Let the model delegate to leaves with `spawn_leaf` (snapshots in `database`). */
  leaf?: WorkerLeafOptions;
  /**
   * How the runner worker validates tool arguments: `auto` (default: ajv's compiled
   * validators, or a no-eval validator where the worker's CSP refuses eval) or `no-eval`
   * (never attempts eval: no CSP violation at all, for extensions and strict-CSP sites).
   */
  validation?: ValidationMode;
  /** The agent's context budget (see `AgentOptions.context`); a local model sets its own by default. */
  context?: ContextBudget;
}

/** `LeafOptions` without the store, which the worker opens itself. */
export type WorkerLeafOptions = Omit<LeafOptions, 'store'>;

/** A run's options that cross to the worker (the signal stays on the page; `output` crosses as a JSON Schema). */
export type WireRunOptions = Pick<RunOptions, 'maxIterations' | 'maxCallsPerReply' | 'maxOutputRetries' | 'conversation' | 'toolChoice' | 'lock'> & {
  output?: Record<string, unknown>;
};

/** What `workers/runner.worker.ts` exposes. */
export interface RunnerWorkerApi {
  configure(config: RunnerConfig): Promise<void>;
  /** A tool that lives on the page (or in a tool worker the page supervises). */
  registerTool(descriptor: ToolDescriptor): Promise<void>;
  /** Remove a tool the page registered (tab tools a page closes). */
  unregisterTool(name: string): Promise<void>;
  /** Start a run; its events, and with its last one its result, come on the session link. */
  startRun(runId: string, input: string, options: WireRunOptions): Promise<void>;
  abort(runId: string, reason: WireReason): Promise<void>;
  /** Connect to an MCP server from the worker and register its tools there; `id` names the connection in later calls. */
  mcpConnect(config: McpServerConfig): Promise<McpConnectionInfo>;
  /** `connection.refresh()`; resolves with the registered names. */
  mcpRefresh(id: number): Promise<string[]>;
  mcpClose(id: number): Promise<void>;
  approve(runId: string, callId: string, options?: ApproveOptions): Promise<void>;
  deny(runId: string, callId: string, reason?: string, options?: DenyOptions): Promise<void>;
  suspend(runId: string): Promise<void>;
  /** Continue a conversation's interrupted run (see `ChatRunner.resume`); events come as `startRun`'s do. */
  resumeRun(runId: string, conversation: string, options: WireResumeOptions): Promise<void>;
  pendingApprovals(conversation: string): Promise<PendingApproval[]>;
}

/** A resume's options that cross to the worker. */
export type WireResumeOptions = Pick<RunOptions, 'maxIterations' | 'maxCallsPerReply' | 'toolChoice' | 'lock'>;

/** An MCP connection as the page knows it (the connection itself lives in the runner worker). */
export interface McpConnectionInfo {
  id: number;
  name: string;
  tools: string[];
}

/** What a dedicated tool worker exposes (see `exposeTools`). */
export interface ToolHostApi {
  descriptors(): Promise<ToolDescriptor[]>;
  /** `callKey` names the call for `abort`. */
  call(name: string, args: unknown, ctx: WireContext, callKey: number): Promise<JsonValue>;
  abort(callKey: number, reason: WireReason): Promise<void>;
  needsApproval(name: string, args: unknown): Promise<boolean>;
}
