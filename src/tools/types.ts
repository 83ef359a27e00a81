import type { FromSchema, JSONSchema } from 'json-schema-to-ts';
import type { RunEvent } from '../core/run.js';
import type { ConcurrencyBudget } from '../util/limiter.js';
import type { StandardSchemaV1 } from '../validation/standard-schema.js';
import type { CallHandle, CallTarget, InputRequest, ParametersSchema, ToolDefinition, Message } from '../core/types.js';

/**
 * The arguments a schema describes: a Standard Schema's output type (after its
 * transforms), or the type of a literal JSON Schema (`Record<string, unknown>` for a
 * schema typed only as a schema).
 */
export type ArgsOf<S> = S extends StandardSchemaV1
  ? StandardSchemaV1.InferOutput<S>
  : S extends ParametersSchema
    ? JSONSchema extends S
      ? Record<string, unknown>
      : FromSchema<S>
    : Record<string, unknown>;

/** What a tool receives besides its arguments. */
export interface ToolContext {
  /** Aborted when the attempt times out or the run is aborted; `reason` says which. */
  signal: AbortSignal;
  callId: string;
  /** 1 for the first attempt, 2 for the first retry, and so on. */
  attempt: number;
  /** The same for every attempt of one call: pass it to your server to deduplicate. */
  idempotencyKey: string;
  /** Where the call was proposed to act (see `Tool.target`): run there, or fail (a tab tool: `tab_gone`). Absent for a tool without `target`. */
  target?: CallTarget;
  /** The run this call belongs to, when a ChatRunner runs it (what delegation to a leaf needs). */
  run?: RunScope;
  /**
   * Run `callback` once when this attempt is aborted, without making `signal` (what a tool that
   * forwards its call elsewhere, to another realm or a server, needs); returns the function that
   * cancels it. Present on the contexts the SDK makes.
   */
  onAbort?(callback: () => void): () => void;
  /**
   * What this call left running outside the run before a reload (an MCP server's task, or its
   * question waiting for answers), as noted then: set when a resumed run continues the call, which
   * then follows it rather than calling again.
   */
  handle?: CallHandle;
  /** Record what the call leaves running outside the run with the call's journal entry (set where the call is journalled); resolves once written, rejects (coded) when it cannot be. */
  noteHandle?(handle: CallHandle): Promise<void>;
  /**
   * Stop the attempt's timeout while the call waits for a person (their wait is no tool's slowness);
   * the returned function starts a fresh timeout of the tool's full length. Present on the contexts the SDK makes.
   */
  holdTimeout?(): () => void;
}

/** What a tool may know of the run that called it. Stays in the realm of the loop. */
export interface RunScope {
  runId: string;
  /** The conversation before the model reply that made this call. */
  messages: readonly Message[];
  /** Add an event to the run's stream (a leaf forwards its own, tagged with its id). */
  emit(event: RunEvent): void;
  /** 0 for a top-level run, 1 for a leaf, and so on. */
  depth: number;
  /** The per-run concurrency limit and the shared budget, for runs started on behalf of this one. */
  concurrency: number;
  budget?: ConcurrencyBudget;
  /**
   * The W3C trace context of a call of this run (its `execute_tool` span), when the run is
   * traced (`RunOptions.tracer`): for a tool that passes it to a server (MCP calls send it in
   * `_meta`). Undefined, or resolving to undefined, when the run is not traced.
   */
  traceContext?(callId: string): Promise<TraceContext | undefined>;
  /**
   * Told what a call left running outside the run (an MCP server's task), so that a run picked up
   * again after a reload can follow it rather than call again: where a runner journals its calls,
   * it records the handle with the call.
   */
  noteHandle?(callId: string, handle: CallHandle): void;
  /**
   * Ask the person for answers on behalf of a running call (an MCP server's `input_required`):
   * emits `input_requested` and waits for `run.respond(callId, values)`. `check` turns the values
   * given into the answers (or says what is wrong with them: `respond` then rejects `invalid_input`
   * and the call keeps waiting). Resolves with the answers, or `null` for a refusal; rejects with
   * `signal`'s reason.
   */
  awaitInput?(ask: InputAsk, signal: AbortSignal): Promise<unknown>;
}

/** What `RunScope.awaitInput` asks: the event's fields, and the check of the answers. */
export interface InputAsk {
  callId: string;
  name: string;
  requests: InputRequest[];
  /** Who wrote the requests (`mcp:<server>`): their words are untrusted. */
  source: string;
  /** The answers the values make, or a string saying what is wrong with them. */
  check(values: unknown): { ok: true; answers: unknown } | { ok: false; message: string };
}

export type { CallHandle } from '../core/types.js';

/** A span's W3C trace context, as the `traceparent` (and `tracestate`) headers carry it. */
export interface TraceContext {
  traceparent: string;
  tracestate?: string;
}

/**
 * The effect policy of a tool: plain data. The ToolManager applies it (a timeout per attempt
 * in run-attempt, retries in tool-manager); the runner reads `idempotent` to decide what may
 * start early, what is journaled and what a `max_iterations` rollback would erase.
 */
export interface ToolPolicy {
  /** Per attempt, enforced by aborting `ctx.signal`. */
  timeoutMs: number;
  /** Retries after a timeout, for idempotent tools only. */
  maxRetries: number;
  retryDelayMs: number;
  /** Safe to run twice. Only idempotent tools are ever retried. */
  idempotent: boolean;
  /** Changes nothing (WebMCP's and MCP's `readOnlyHint`); implies `idempotent`. */
  readOnly?: boolean;
}

/** A registered unit of work the model may call. */
// biome-ignore lint/suspicious/noExplicitAny: a registry holds tools of every argument type; `unknown` would refuse them all
export interface Tool<Args = any, Output = unknown> extends ToolDefinition, ToolPolicy {
  /** The tool changes nothing (so it is idempotent too): MCP's and WebMCP's `readOnlyHint`. */
  readOnly?: boolean;
  /**
   * Ask a person before running: a boolean, or a rule decided from the arguments (anything truthy
   * asks, and so does a rule that throws). A rule gets the run's signal, aborted when the run stops waiting.
   */
  needsApproval?: boolean | ApprovalRule<Args>;
  call(args: Args, ctx: ToolContext): Output | Promise<Output>;
  /**
   * Only waits on other calls (a leaf, a Code Mode program): holds no slot of a shared budget,
   * which its own calls need, and never starts while its reply streams.
   */
  delegates?: boolean;
  /**
   * The Standard Schema (zod, ...) the tool was defined with; `parameters` is then its
   * JSON Schema. It validates (and transforms) the arguments in the tool's own realm.
   */
  standardSchema?: StandardSchemaV1<unknown, Args>;
  /**
   * Who the tool is beyond its name, for standing decisions and recorded approvals (an MCP tool:
   * its server and pinned definition). Default: its definition (see `toolIdentity`).
   */
  identity?: string;
  /**
   * What the tool returns may hold words from someone other than the person using the app (a web
   * page, a note written by others, search results, a third party's server). Default false.
   */
  untrusted?: boolean;
  /**
   * What a call of this tool proposed while untrusted content is in the model's context does:
   * `allow` (its own policy alone), `ask` (a person approves it first) or `refuse` (it does not
   * run: `untrusted_refused`). Default: `allow` for a readOnly tool, `ask` for every other.
   */
  afterUntrusted?: AfterUntrusted;
  /**
   * The tool's definition (name, description, parameters) was written by someone other than the
   * app, who is named here (`mcp:https://…` for an MCP server's untrusted tools, `webmcp:<origin>`
   * for `listWebMcpTools({ untrusted: true })`, `tab:<id>` for a tab's tools). A model request that
   * offers it is exposed, as one holding an untrusted result is, and its sources name this.
   */
  untrustedDefinition?: string;
  /**
   * Where a call acts, for a tool whose place can change between a call's proposal and its start
   * (a tab's tools: the person approves a call on page A, the tab goes on to page B). Asked once
   * when the call is proposed, before anyone is asked to approve it; the call carries it
   * (`ToolCall.target`, shown on `approval_requested`) and gets it back as `ctx.target`, to run
   * there or fail. A throw ends the call unstarted with the error's code.
   */
  target?: TargetRule<Args>;
  /**
   * Read the tool's output in quarantine (the dual-LLM pattern): a separate, tool-less request to
   * the agent's engine turns it into a value of `output`, which becomes the call's output. The
   * tool is untrusted; its result carries no mark when `output` admits no free text.
   */
  quarantine?: Quarantine;
  /**
   * In `untrusted: 'hold'` mode, what a call that carries a held value in a top-level argument
   * does, per argument: `{ body: 'allow', to: 'ask' }`. An argument not named follows `afterUntrusted`.
   */
  heldArguments?: HeldArguments;
  /**
   * `'plain'`: the tool's output never repeats its arguments (a count, an id, "sent"), so a call
   * that received held values gives an output the model may read. Default: such an output is held too.
   */
  heldOutput?: 'plain';
}

/** What a call carrying a held value does, by top-level argument (see `Tool.heldArguments`). */
export type HeldArguments = Readonly<Record<string, AfterUntrusted>>;

/** What a call proposed after the model read untrusted content does (see `Tool.afterUntrusted`). */
export type AfterUntrusted = 'allow' | 'ask' | 'refuse';

/**
 * How a quarantined tool's output is read (see `Tool.quarantine`): plain data, so it crosses to
 * the runner worker with the tool's definition.
 */
export interface Quarantine {
  /** A JSON Schema the answer must match. Only booleans, numbers, null and strings in `enum`/`const` (and objects or arrays of those): the result is not marked. */
  output: Record<string, unknown>;
  /** What to extract, said to the quarantined model after the fixed prompt (say "Is this a checkout page?"). */
  instructions?: string;
}

/** How a tool names where a call acts (see `Tool.target`): from the call's checked arguments, when it is proposed. */
export type TargetRule<Args = unknown> = (args: Args, ctx: { signal: AbortSignal }) => CallTarget | Promise<CallTarget>;

/** A tool's approval rule: decided from the call's arguments; anything truthy asks. */
export type ApprovalRule<Args = unknown> = (args: Args, ctx: { signal: AbortSignal }) => boolean | Promise<boolean>;

/**
 * A tool's own failure, as its developer sees it: what its code threw (with its stack), not the
 * `crashed` result the model reads. Told to `onToolError` (AgentOptions, WorkerRunnerOptions).
 */
export interface ToolErrorReport {
  tool: string;
  callId: string;
  attempt: number;
  /** What the tool threw, as thrown (an Error keeps its stack). */
  error: unknown;
}

/** Told of each call whose tool threw something other than a `ToolError` (its bug, usually): log it, report it. */
export type OnToolError = (report: ToolErrorReport) => void;
