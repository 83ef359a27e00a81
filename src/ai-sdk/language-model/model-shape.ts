// The AI SDK's language model specification (`@ai-sdk/provider`, versions v2, v3 and v4) as far as
// the engine drives it, written structurally: nothing of `ai` or a provider is imported, at run
// time or for types, so an app that never uses them never installs them.

/** An AI SDK language model object (`createAnthropic(...)('claude-…')`, `google('gemini-…')`, an in-browser provider's model). */
export interface AiSdkLanguageModel {
  readonly specificationVersion: 'v2' | 'v3' | 'v4';
  /** The provider's id (`anthropic.messages`, `google.generative-ai`, `openai.responses`). */
  readonly provider: string;
  readonly modelId: string;
  /** Takes `AiSdkCallOptions` (typed `never` here so that every version's own options type fits). */
  doStream(options: never): PromiseLike<{ stream: ReadableStream<unknown> }>;
}

/** The call options the engine sends (the specification's `LanguageModelV4CallOptions`, in the part every version shares). */
export interface AiSdkCallOptions {
  prompt: AiSdkMessage[];
  tools?: Array<{ type: 'function'; name: string; description?: string; inputSchema: Record<string, unknown> }>;
  toolChoice?: { type: 'auto' | 'none' | 'required' } | { type: 'tool'; toolName: string };
  responseFormat?: { type: 'json'; schema?: Record<string, unknown>; name?: string };
  abortSignal?: AbortSignal;
  maxOutputTokens?: number;
  temperature?: number;
  topP?: number;
  topK?: number;
  seed?: number;
  stopSequences?: string[];
  headers?: Record<string, string | undefined>;
  providerOptions?: Record<string, Record<string, unknown>>;
  [option: string]: unknown;
}

/** Provider fields carried with a part, by provider (`{ google: { thoughtSignature } }`). */
export type AiSdkProviderFields = Record<string, Record<string, unknown>>;

/** One message of a prompt. */
export type AiSdkMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: Array<{ type: 'text'; text: string } | AiSdkFilePart> }
  | { role: 'assistant'; content: AiSdkAssistantPart[] }
  | { role: 'tool'; content: Array<{ type: 'tool-result'; toolCallId: string; toolName: string; output: AiSdkToolOutput }> };

/** A file (or image) in a prompt: its data raw bytes or a URL (v2, v3), or tagged `{ type: 'data' | 'url' }` (v4). */
export interface AiSdkFilePart {
  type: 'file';
  data: Uint8Array | URL | { type: 'data'; data: Uint8Array } | { type: 'url'; url: URL };
  mediaType: string;
  filename?: string;
}

/** A tool result's output: its text, or its text and parts (`content`, whose items' shapes differ by version). */
export type AiSdkToolOutput = { type: 'text'; value: string } | { type: 'content'; value: Array<Record<string, unknown>> };

export type AiSdkAssistantPart =
  | { type: 'text'; text: string; providerOptions?: AiSdkProviderFields }
  | { type: 'reasoning'; text: string; providerOptions?: AiSdkProviderFields }
  | { type: 'tool-call'; toolCallId: string; toolName: string; input: unknown; providerOptions?: AiSdkProviderFields };

/** Token counts as v3 and v4 report them; v2 reports flat numbers (`inputTokens`, `cachedInputTokens`, …). */
export interface AiSdkUsage {
  inputTokens?: number | { total?: number; noCache?: number; cacheRead?: number; cacheWrite?: number };
  outputTokens?: number | { total?: number; text?: number; reasoning?: number };
  totalTokens?: number;
  reasoningTokens?: number;
  cachedInputTokens?: number;
}
