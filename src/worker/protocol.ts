// Wire types between the page, the runner worker and dedicated tool workers. Types only.
import type { EngineConfig } from '../engines/config.js';
import type { ToolChoice } from '../engines/types.js';
import type { LockMode } from '../runner/conversation-lock.js';
import type { RunEvent } from '../runner/events.js';
import type { RunResult } from '../runner/run-result.js';
import type { JsonValue, ToolContext, ToolDefinition, ToolPolicy, ValidationMode } from '../tools/types.js';

/** A tool as it crosses a boundary: its definition and policy; its code stays home. */
export interface ToolDescriptor extends ToolDefinition, ToolPolicy {
  /** `ask`: the tool's own realm decides from the arguments. */
  approval: 'never' | 'always' | 'ask';
}

/** The context fields that clone; the signal crosses as its own argument (a MessagePort). */
export type WireContext = Omit<ToolContext, 'signal' | 'run'>;

/** How the runner worker reaches a tool that lives elsewhere (the page, or a tool worker via the page). */
export interface ToolInvoker {
  call(args: unknown, ctx: WireContext, signal: AbortSignal): Promise<JsonValue>;
  needsApproval(args: unknown): Promise<boolean>;
}

/** The runner worker's settings: plain data. */
export interface RunnerConfig {
  engine: EngineConfig;
  preamble?: string;
  concurrency?: number;
  maxResultChars?: number;
  /** IndexedDB database for conversations, the tool-call journal and leaf snapshots. */
  database?: string;
  /** Let the model delegate to leaves (`spawn_leaf`); snapshots go to `database` (or memory without one). */
  leaf?: WorkerLeafOptions;
  /** How the worker validates tool arguments: `auto` or `no-eval`. */
  validation?: ValidationMode;
}

/** `LeafOptions` without the store, which the worker opens itself. */
export interface WorkerLeafOptions {
  tools?: string[];
  maxDepth?: number;
  timeoutMs?: number;
  maxIterations?: number;
}

export interface WireRunOptions {
  maxIterations?: number;
  conversation?: string;
  toolChoice?: ToolChoice;
  lock?: LockMode;
}

/** What `workers/runner.worker.ts` exposes. */
export interface RunnerWorkerApi {
  configure(config: RunnerConfig): Promise<void>;
  registerTool(descriptor: ToolDescriptor, invoker: ToolInvoker): Promise<void>;
  startRun(runId: string, input: string, options: WireRunOptions): Promise<void>;
  /** The events queued now (waits for one), or null when the run's events have ended. */
  nextEvents(runId: string): Promise<RunEvent[] | null>;
  result(runId: string): Promise<RunResult>;
  abort(runId: string, reason?: unknown): Promise<void>;
  approve(runId: string, callId: string): Promise<void>;
  deny(runId: string, callId: string, reason?: string): Promise<void>;
  /** Forget a settled run whose events were drained. */
  release(runId: string): Promise<void>;
}

/** What a dedicated tool worker exposes (see `exposeTools`). */
export interface ToolHostApi {
  descriptors(): Promise<ToolDescriptor[]>;
  call(name: string, args: unknown, ctx: WireContext, signal: AbortSignal): Promise<JsonValue>;
  needsApproval(name: string, args: unknown): Promise<boolean>;
}
