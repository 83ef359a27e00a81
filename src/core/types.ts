// The types every folder speaks: a call, its result, a message, a JSON value. Types only, and
// importing nothing of the SDK, so no type-only import runs in a circle through them.
import type { JSONSchema } from 'json-schema-to-ts';
import type { ContentPart, MediaPart } from './parts.js';

/** A JSON value: what tool outputs and decoded arguments are made of. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** A JSON Schema for a tool's parameters; its top level must describe an object. */
export type ParametersSchema = Exclude<JSONSchema, boolean> & { readonly type: 'object' };

/** A model's request to run one tool. `arguments` is the parsed JSON value (or the raw text if it did not parse). */
export interface ToolCall {
  id: string;
  name: string;
  arguments: unknown;
  /** Provider fields a server needs echoed back with this call (kept verbatim). */
  provider?: Record<string, unknown>;
  /** Set by the runner when the call is read: the key of every attempt, and of its journal entry. */
  idempotencyKey?: string;
  /**
   * Set by the runner when the call is proposed, for a tool that acts on a place that may change
   * before the call starts (a tab's page, see `Tool.target`): where it runs, or not at all.
   * `approval_requested` carries it, so a card can name the page.
   */
  target?: CallTarget;
}

/** Where a call acts, as its tool names it when the call is proposed (a tab tool: the tab, its frame and the document it shows). Plain JSON. */
export interface CallTarget {
  readonly [key: string]: JsonValue;
}

/** What the model is told about a tool. */
export interface ToolDefinition {
  name: string;
  description: string;
  parameters: ParametersSchema;
}

/** Error codes a ToolResult can carry. */
export type ToolErrorCode = 'unknown_tool' | 'invalid_arguments' | 'tool_error' | 'timeout' | 'aborted' | 'crashed' | (string & {});

export interface ToolSuccess {
  id: string;
  name: string;
  ok: true;
  output: JsonValue;
  attempts: number;
  durationMs: number;
  /** The arguments the person edited the call to on approval (it ran with them, not the model's). */
  editedArguments?: unknown;
  /** What the tool returned may hold words from someone other than the person (see `defineTool({ untrusted })`). */
  untrusted?: true;
  /** The output is held (`untrusted: 'hold'`): the model reads this handle instead of it. */
  held?: HeldHandle;
  /** Images and files the tool returned beside its output (`withParts`), which the model sees where its engine takes them. */
  parts?: MediaPart[];
}

export interface ToolFailure {
  id: string;
  name: string;
  ok: false;
  error: { code: ToolErrorCode; message: string };
  attempts: number;
  durationMs: number;
  /** The arguments the person edited the call to on approval (it ran with them, not the model's). */
  editedArguments?: unknown;
  /** What the tool said may hold words from someone other than the person (see `defineTool({ untrusted })`). */
  untrusted?: true;
  /** The error's message is held (`untrusted: 'hold'`): the model reads its code, and this handle instead of the message. */
  held?: HeldHandle;
}

/**
 * What the model reads instead of a held value (`untrusted: 'hold'`): its id in the conversation
 * (`$1`, `$2`, …), the tool whose result it is, its JSON type and the length of its JSON.
 */
export interface HeldHandle {
  held: string;
  from: string;
  type: 'string' | 'number' | 'boolean' | 'null' | 'object' | 'array';
  length: number;
  /** How many images or files are held with it (a tool's parts), where there are any: `inspect_held` reads them. */
  parts?: number;
}

/** The outcome of one call, success or failure; failures are data, never exceptions. */
export type ToolResult = ToolSuccess | ToolFailure;

/** One entry of a conversation, in the SDK's own provider-neutral shape. */
export type Message = SystemMessage | UserMessage | AssistantMessage | ToolMessage;

export interface SystemMessage {
  role: 'system';
  content: string;
}

export interface UserMessage {
  role: 'user';
  /** The person's words, or a list of parts (text, images, files; stored, their bytes are `Blob`s). */
  content: string | ContentPart[];
  /** `runtime`: written by ambi-web (e.g. a format error with no call id), not by a person. */
  origin?: 'user' | 'runtime';
  /** A runtime note quoting a reply the model wrote after reading untrusted content (see `AssistantMessage.untrusted`). */
  untrusted?: true;
}

export interface AssistantMessage {
  role: 'assistant';
  content: string;
  toolCalls?: ToolCall[];
  /** Provider fields the server needs echoed back with this message (kept verbatim). */
  provider?: Record<string, unknown>;
  /**
   * Written in a model turn whose request held untrusted content: it may carry others' words on, so
   * a request that holds it is exposed, whatever else was trimmed out. Kept in stores, never sent to a server.
   */
  untrusted?: true;
}

export interface ToolMessage {
  role: 'tool';
  toolCallId: string;
  name: string;
  /** The ToolResult as the model reads it (JSON text). */
  content: string;
  /** Images and files the tool returned beside its output (`withParts`); stored, their bytes are `Blob`s. */
  parts?: MediaPart[];
  /** It holds words from someone other than the person (an untrusted tool's result): kept in stores, never sent to a server. */
  untrusted?: true;
}

/** Token counts of one model request: the server's, or an estimate where it reports none. */
export interface Usage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
  /** Of `promptTokens`, those read from the provider's prompt cache, where it says. */
  cacheReadTokens?: number;
  /** Of `promptTokens`, those written to the provider's prompt cache, where it says. */
  cacheWriteTokens?: number;
  /** Of `completionTokens`, those the model spent reasoning, where it says. */
  reasoningTokens?: number;
  /** Estimated by ambi-web (characters / 4): the server reported no counts, or counts that cannot be right. */
  estimated?: true;
}

/** Token counts summed over the model requests of a run, its leaves' and any extra request included. */
export interface RunUsage extends Usage {
  /** Model requests that answered. */
  requests: number;
  /** At least one request's counts are estimates. */
  estimated?: true;
}

export type FinishReason = 'stop' | 'tool_calls' | 'length' | 'content_filter' | 'error' | (string & {});

/** How the model may use tools on one request. */
export type ToolChoice = 'auto' | 'required' | 'none' | { name: string };

/** The tags a call is written between. */
export interface CallTags {
  open: string;
  close: string;
}

/** A tool-call block that yielded no call. `message` is addressed to the model so it can correct itself. */
export interface ParseError {
  code: 'malformed_tool_call';
  /** What is wrong, and the expected format in brief. */
  message: string;
  /**
   * The unusable snippet: a whole tag block exactly as the model wrote it, or, for one item of a
   * list, that item as `JSON.stringify` writes it (the model's spacing is not kept).
   */
  raw: string;
}

/** How many tokens one request may take: `maxTokens` in all, `reserveTokens` of them kept free for the reply. */
export interface ContextBudget {
  maxTokens: number;
  /** Default: a quarter of `maxTokens`, at most 1024. */
  reserveTokens?: number;
  /** Tokens a chat template adds around each message (role markers, separators). Default 4. */
  tokensPerMessage?: number;
}

/**
 * Where a call stands in its record: `asked` (a person was asked about it), `decided` (and
 * answered), `started` (written before it runs), then `succeeded` or `failed`.
 */
export type JournalState = 'asked' | 'decided' | 'started' | 'succeeded' | 'failed';

/** What a call left running outside the run: an MCP server's task, by the server (its URL without secrets) and the task's id. */
export interface CallHandle {
  kind: 'mcp_task';
  server: string;
  taskId: string;
}
