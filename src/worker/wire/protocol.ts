// Wire types between the page, the runner worker and dedicated tool workers (all of them over Comlink).
import type { LeafOptions } from '../../leaf/leaf-options.js';
import type { RunOptions } from '../../runner/run-options.js';
import type { ApproveOptions, DenyOptions } from '../../call/approvals.js';
import type { PendingApproval } from '../../store/approval-types.js';
import type { AbortSource } from '../../util/abort-source.js';
import type { AfterUntrusted, HeldArguments, Quarantine, ToolContext, ToolPolicy } from '../../tools/types.js';
import type { SpanSink } from '../../extensions/traces/span-records.js';
import type { CallTarget, ToolDefinition } from '../../core/types.js';
import type { McpServerConfig } from '../../mcp/config.js';
import type { WireEvent } from './event-codec.js';
import type { WireError, WireReason } from './wire-error.js';
import type { ServedOutput } from '../../call/served-output.js';
import type { RunInput } from '../../core/parts.js';
import type { EngineConfig } from '../../engines/config.js';
import type { Cassette } from '../../engines/cassette/cassette.js';
import type { ContextBudget } from '../../core/types.js';
import type { ValidationMode } from '../../validation/types.js';
import type { UntrustedMode } from '../../runner/run-setup.js';
import type { PageIdentity, RunInfo } from '../shared-runner/protocol.js';
import type { PromptApiAvailability, PromptApiCoreOptions, PromptApiEvent, PromptApiRequest } from '../../engines/prompt-api/access.js';
import type { CodeModeOption } from '../../codemode/code-mode-options.js';

/** A tool as it crosses a boundary: its definition and policy; its code stays home. */
export interface ToolDescriptor extends ToolDefinition, ToolPolicy {
  /** `ask`: the tool's own realm decides from the arguments. */
  approval: 'never' | 'always' | 'ask';
  /** The tool names where a call acts (`Tool.target`), in its own realm, when the call is proposed. */
  targeted?: true;
  /** See `Tool.identity`, `Tool.untrusted`, `Tool.afterUntrusted`, `Tool.untrustedDefinition`, `Tool.quarantine` (the quarantine request is made where the run is). */
  identity?: string;
  untrusted?: boolean;
  afterUntrusted?: AfterUntrusted;
  untrustedDefinition?: string;
  quarantine?: Quarantine;
  /** See `Tool.heldArguments`, `Tool.heldOutput`. */
  heldArguments?: HeldArguments;
  heldOutput?: 'plain';
}

/** The context fields that clone; cancelling travels as its own message. */
export type WireContext = Omit<ToolContext, 'signal' | 'run'>;

/** How the page runs a tool it serves to the runner worker: one on the page, or a tool worker's. */
export interface ToolInvoker {
  call(args: unknown, ctx: WireContext, abort: AbortSource): ServedOutput | Promise<ServedOutput>;
  /** The tool's approval rule; `abort` fires when the run no longer waits for it (the rule is stopped like a call). */
  needsApproval(args: unknown, abort: AbortSource): Promise<boolean>;
  /** Where a call acts (`Tool.target`), asked when it is proposed; stopped like a rule. Served for a tool that names one. */
  target?(args: unknown, abort: AbortSource): Promise<CallTarget>;
}

/**
 * A page-tool call as it crosses from the runner worker to the page: one array on the worker's
 * channel, beside Comlink's messages (an array has no `type` and no `id`: Comlink's listeners pass
 * it by), its context spelt out in place. `key` names it for the answer and for `abort`.
 */
export type CallMessage = [
  kind: typeof CALL,
  key: number,
  tool: string,
  args: unknown,
  callId: string,
  attempt: number,
  idempotencyKey: string,
  target?: CallTarget,
];
/** The page's answer to the call `key`: its output, or its failure in the wire form. */
export type AnswerMessage = [kind: typeof ANSWERED, key: number, output: ServedOutput] | [kind: typeof FAILED, key: number, error: WireError];
export const CALL = 0;
export const ANSWERED = 1;
export const FAILED = 2;
export const EVENTS = 3;

/** Run events as they cross (see event-codec.ts), by run, in the order they were emitted; `null` ends a run's events. */
export type EventBatch = Array<[runId: string, events: WireEvent[] | null]>;
/** A batch of run events, from the runner worker to the page: one array on the channel, as a call is (no answer is awaited). */
export type EventsMessage = [kind: typeof EVENTS, batch: EventBatch];

/**
 * What the page serves the runner worker, over Comlink on the worker's own channel (the one
 * wire protocol between them: the page wraps the runner's API, the runner wraps this). A call
 * and an approval rule carry a key; an abort names it.
 */
export interface PageHostApi {
  /** Run page tool `tool` (or a tool worker's, through the page). */
  call(tool: string, args: unknown, ctx: WireContext, key: number): Promise<ServedOutput>;
  /** Decide page tool `tool`'s approval rule for these arguments. */
  needsApproval(tool: string, args: unknown, key: number): Promise<boolean>;
  /** Where a call of page tool `tool` with these arguments acts (`Tool.target`). */
  target(tool: string, args: unknown, key: number): Promise<CallTarget>;
  /** The call or rule `key` is no longer awaited: its abort fires where it runs. */
  abort(key: number, reason: WireReason): void;
  /** The page's `LanguageModel` (the browser's built-in model, offered to documents only): its availability (`unavailable` where the page has none). */
  promptApiAvailability(options: PromptApiCoreOptions): Promise<PromptApiAvailability>;
  /** One prompt of the page's `LanguageModel`: its events, in a stream transferred to the worker (cancelling it aborts the prompt). */
  promptApi(request: PromptApiRequest): Promise<ReadableStream<PromptApiEvent>>;
}

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
  /** Record every model request and its response (see `AgentOptions.record`): `runner.cassette()` returns them. */
  record?: boolean;
  /** How untrusted tools' results reach the model: `'mark'` (default) or `'hold'` (see `AgentOptions.untrusted`). */
  untrusted?: UntrustedMode;
  /** The most bytes one part (an image, a file) may hold (see `AgentOptions.maxPartBytes`; default 20 MiB). */
  maxPartBytes?: number;
  /** The most bytes the parts of one conversation may hold together (see `AgentOptions.maxConversationBytes`; default 100 MiB). */
  maxConversationBytes?: number;
  /** Code Mode (see `AgentOptions.codeMode`): the model writes programs that call the tools; each program runs in a sandbox worker of its own. */
  codeMode?: CodeModeOption;
  /** A shared runner's page: who is configuring (set by the page, not by the app). */
  page?: PageIdentity;
}

/** `LeafOptions` without the store, which the worker opens itself. */
export type WorkerLeafOptions = Omit<LeafOptions, 'store'>;

/**
 * A run's options that cross to the worker as data (the signal stays on the page; `output` crosses
 * as a JSON Schema). What a run takes that cannot be cloned crosses as a Comlink proxy of the page's
 * end of it, beside the options: a tracer (SpanSink) and a Standard Schema output (OutputCheck).
 */
export type WireRunOptions = Pick<
  RunOptions,
  'maxIterations' | 'maxCallsPerReply' | 'maxOutputRetries' | 'conversation' | 'toolChoice' | 'lock' | 'maxTokens'
> & {
  output?: Record<string, unknown>;
};

/** The page's Standard Schema `output`, asked about each answer from the worker (see PageOutput): its issues, or none. */
export interface OutputCheck {
  validate(value: unknown): Promise<{ issues?: Array<{ message: string; path?: Array<string | number> }> }>;
}

/** What `workers/runner.worker.ts` exposes. */
export interface RunnerWorkerApi {
  configure(config: RunnerConfig): Promise<void>;
  /**
   * Tools that live on the page (or in a tool worker the page supervises), registered in order, in
   * one message however many there are; each one's refusal (its schema, say), or null where it was registered.
   */
  registerTools(descriptors: ToolDescriptor[]): Promise<Array<WireError | null>>;
  /** Remove a tool the page registered (tab tools a page closes). */
  unregisterTool(name: string): Promise<void>;
  /**
   * Start a run; its events, and with its last one its result, come to the page's `events`. `input`:
   * the person's words, or parts whose bytes are Blobs (they cross without a copy). `spans`: where a
   * traced run's spans go (the page's exporter); `output`: the page's Standard Schema.
   */
  startRun(runId: string, input: RunInput, options: WireRunOptions, spans?: SpanSink, output?: OutputCheck): Promise<void>;
  abort(runId: string, reason: WireReason): Promise<void>;
  /** Connect to an MCP server from the worker and register its tools there; `id` names the connection in later calls. */
  mcpConnect(config: McpServerConfig): Promise<McpConnectionInfo>;
  /** `connection.refresh()`; resolves with the registered names. */
  mcpRefresh(id: number): Promise<string[]>;
  mcpClose(id: number): Promise<void>;
  approve(runId: string, callId: string, options?: WireApproveOptions): Promise<void>;
  deny(runId: string, callId: string, reason?: string, options?: DenyOptions): Promise<void>;
  /** `run.respond(callId, values)`: rejects (coded) as it does in-process. */
  respond(runId: string, callId: string, values: Record<string, unknown> | null): Promise<void>;
  suspend(runId: string): Promise<void>;
  /** Continue a conversation's interrupted run (see `ChatRunner.resume`); events come as `startRun`'s do. */
  resumeRun(runId: string, conversation: string, options: WireResumeOptions, spans?: SpanSink): Promise<void>;
  pendingApprovals(conversation: string): Promise<PendingApproval[]>;
  /** The recording so far (a runner made with `record: true`). */
  cassette(): Promise<Cassette>;
  /** The runs going on in this runner (a shared one: every tab's). */
  runs(): Promise<RunInfo[]>;
  /** Follow run `runId` from this page: its state so far as events, then its events as they come, as `startRun`'s do (`unknown_run` if none). */
  attach(runId: string): Promise<void>;
}

/** An approval's options as they cross: arguments the page could not send are refused there, and said so here. */
export type WireApproveOptions = ApproveOptions & { refusedArguments?: string };

/** A resume's options that cross to the worker. */
export type WireResumeOptions = Pick<RunOptions, 'maxIterations' | 'maxCallsPerReply' | 'toolChoice' | 'lock' | 'maxTokens'>;

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
  call(name: string, args: unknown, ctx: WireContext, callKey: number): Promise<ServedOutput>;
  abort(callKey: number, reason: WireReason): Promise<void>;
  /** `callKey` names the rule for `abort`, as a call's does. */
  needsApproval(name: string, args: unknown, callKey: number): Promise<boolean>;
  /** Where a call acts (`Tool.target`); `callKey` names it for `abort`. */
  target(name: string, args: unknown, callKey: number): Promise<CallTarget>;
}
