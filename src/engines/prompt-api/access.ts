// How the Prompt API engine reaches the browser's model: the `LanguageModel` of its own realm, or
// (in a runner worker, where the browser offers `LanguageModel` to documents only) the page's,
// through the same interface. Types only: the engine knows nothing of which one it has.

/** What `LanguageModel.availability()` answers. */
export type PromptApiAvailability = 'unavailable' | 'downloadable' | 'downloading' | 'available';

/** One message as the Prompt API takes it: text, or (a user's) a list of text and images (`{ type: 'image', value: Blob }`). */
export interface PromptApiMessage {
  role: 'system' | 'user' | 'assistant';
  content: string | PromptApiContent[];
}

/** One piece of a multimodal message (`LanguageModelMessageContent`). A Blob crosses from a runner worker to the page as it is. */
export type PromptApiContent = { type: 'text'; value: string } | { type: 'image'; value: Blob };

/** The options `availability()` and `create()` share (`LanguageModelCreateCoreOptions`), plain data. */
export interface PromptApiCoreOptions {
  /** Text in the config's languages; `{ type: 'image' }` too for a request that holds images. */
  expectedInputs: Array<{ type: 'text'; languages: string[] } | { type: 'image' }>;
  expectedOutputs: Array<{ type: 'text'; languages: string[] }>;
  temperature?: number;
  topK?: number;
}

/** One prompt: the session to create and what to prompt it with. Plain data: it crosses from a runner worker to the page. */
export interface PromptApiRequest {
  session: PromptApiCoreOptions & { initialPrompts: PromptApiMessage[] };
  input: PromptApiMessage[];
  /** A JSON Schema the reply must match (`LanguageModelPromptOptions.responseConstraint`). */
  responseConstraint?: Record<string, unknown>;
}

/** What one prompt streams: download progress while the model is fetched (`loaded` of `total`), then the reply's text as it comes. */
export type PromptApiEvent = { type: 'download'; loaded: number; total: number } | { type: 'text'; text: string };

/** The browser's model, as the engine uses it. */
export interface PromptApiAccess {
  availability(options: PromptApiCoreOptions): Promise<PromptApiAvailability>;
  /** The events of one prompt. Cancelling the stream aborts the prompt (and a download it started) and frees its session. */
  prompt(request: PromptApiRequest): Promise<ReadableStream<PromptApiEvent>>;
}

/** The part of the Prompt API's `LanguageModel` (a static interface) the engine uses, as its specification shapes it. */
export interface LanguageModelStatic {
  availability(options?: PromptApiCoreOptions): Promise<PromptApiAvailability>;
  create(
    options?: PromptApiCoreOptions & { initialPrompts?: PromptApiMessage[]; signal?: AbortSignal; monitor?: (monitor: EventTarget) => void },
  ): Promise<LanguageModelSession>;
}

/** A `LanguageModel` session. */
export interface LanguageModelSession {
  promptStreaming(input: PromptApiMessage[], options?: { responseConstraint?: Record<string, unknown>; signal?: AbortSignal }): ReadableStream<string>;
  destroy(): void;
}
