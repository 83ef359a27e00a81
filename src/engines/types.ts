import type { ContextBudget } from '../core/types.js';
import type { PartKinds } from '../core/parts.js';
import type { ToolCall, ToolDefinition, Message, Usage, FinishReason, ToolChoice, CallTags } from '../core/types.js';

/** Who answers a model request, as traces name it (`gen_ai.provider.name`, `gen_ai.request.model`, `server.*`). */
export interface EngineInfo {
  provider: string;
  model?: string;
  /** The server's host and port (never a path, a query or credentials). */
  server?: { address: string; port?: number };
}

/** One model request. */
export interface EngineRequest {
  messages: readonly Message[];
  /** Sent natively when the engine supports it; otherwise already taught in the system prompt. */
  tools: readonly ToolDefinition[];
  toolChoice?: ToolChoice;
  /**
   * The agent's parser's tags (the runner sets them from `parser.callTags`). An engine that
   * constrains its output writes calls between them. Default: `[TOOL_CALL]` / `[/TOOL_CALL]`.
   */
  callTags?: CallTags;
  /**
   * Set on an answering turn of a run with an `output` schema: the answer must be JSON of this
   * schema. An engine that can hold the model to it does (`structuredOutputs`, a local grammar);
   * the runner validates the answer in any case.
   */
  output?: AnswerFormat;
  signal?: AbortSignal;
}

/** The format of a run's final answer, for engines that constrain it. */
export interface AnswerFormat {
  /** A name for the format (`[a-zA-Z0-9_-]`, from the schema's title, else `output`). */
  name: string;
  schema: Record<string, unknown>;
}

/** What an engine streams back, in order. Exactly one `finish` ends a successful stream. */
export type EngineEvent =
  | { type: 'text'; text: string }
  /** A native tool call, complete (deltas already merged by index). */
  | { type: 'tool_call'; call: ToolCall }
  | { type: 'usage'; usage: Usage }
  /** `provider`: fields the server needs echoed back on the assistant message. */
  | { type: 'finish'; reason: FinishReason; provider?: Record<string, unknown> }
  /** Something the caller should know that does not stop the reply (the runner emits it as a `warning` run event). */
  | { type: 'warning'; code: string; message: string }
  /** The model is being downloaded before it can answer: `loaded` of `total` (the runner emits it as a `model_download` run event). */
  | { type: 'download'; loaded: number; total: number };

/** A model behind a streaming interface. Created from a plain-data config in the realm that runs the loop. */
export interface Engine {
  /** True: tools travel in the request and calls come back as `tool_call` events. False: calls are parsed from text. */
  readonly nativeTools: boolean;
  stream(request: EngineRequest): AsyncIterable<EngineEvent>;
  /** Tokens of `text` by the model's own tokenizer, where the engine has one (the runner estimates characters / 4 otherwise). */
  countTokens?(text: string, signal?: AbortSignal): Promise<number>;
  /** The context budget the model itself sets (a local model's context size), used when the agent sets none. */
  contextBudget?(signal?: AbortSignal): Promise<ContextBudget>;
  /** Who answers (provider, model, server), for traces and cassettes; engines built from a config get it from the config. */
  readonly info?: EngineInfo;
  /**
   * The parts beyond text its model takes (`{ image: true }`: images; `file`: other files). A
   * request holding a part it does not take fails `unsupported_content` before it is sent. Absent: text only.
   */
  readonly accepts?: PartKinds;
}
