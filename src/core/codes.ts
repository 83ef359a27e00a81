/** Codes an engine failure can carry (an HTTP failure is an `EngineHttpError`, code `http_error`). */
export type EngineErrorCode =
  | 'aborted'
  | 'timeout'
  | 'network_error'
  | 'stream_cut'
  | 'malformed_stream'
  | 'stream_error'
  | 'script_exhausted'
  | 'invalid_engine_config'
  /** A config whose `kind` the runner has no engine for (the message names the kinds it has). */
  | 'unknown_engine'
  /** The model cannot be used here (the browser's built-in model is unavailable, or could not be downloaded). */
  | 'engine_unavailable'
  /** A `toolChoice` the engine cannot honour (a local model's grammar names no such tool). */
  | 'invalid_tool_choice'
  /** An engine failed without a code of its own. */
  | 'engine_error';

/** Codes a local model failure can carry (an abort is a plain `EngineError` with code `aborted`). */
export type LocalModelErrorCode =
  /** The bytes do not start with the GGUF magic, or its header is not readable GGUF. */
  | 'not_gguf'
  /** A GGUF version this engine cannot read (it reads 2 and 3). */
  | 'unsupported_gguf_version'
  /** The file ends before its header or its tensor data does. */
  | 'truncated_model'
  /** The download answered an HTTP error, could not connect, or broke off before the end. */
  | 'download_failed'
  /** The model (or its context) does not fit in the WebAssembly memory. */
  | 'out_of_memory'
  /** llama.cpp refused the model for another reason (see the message). */
  | 'load_failed'
  /** `@wllama/wllama` (an optional peer dependency) could not be imported. */
  | 'runtime_unavailable'
  /** The prompt does not fit in the context (`contextSize`). */
  | 'context_overflow'
  /** llama.cpp failed while generating (see the message). */
  | 'generation_failed';

/** Codes an MCP failure carries. */
export type McpErrorCode =
  /** Connecting, initialising or listing the tools failed (the message names the URL without credentials). */
  | 'mcp_connect_failed'
  /** The server went away: a call could not reach it, or it stopped answering mid-call. */
  | 'mcp_unavailable'
  /** The server changed this tool's definition after connection: withdrawn until `connection.refresh()`. */
  | 'tool_changed'
  /** The tool's `structuredContent` does not match its `outputSchema`. */
  | 'invalid_output'
  /** `mcpServer(...)` was given something unusable. */
  | 'invalid_mcp_config'
  /** `@modelcontextprotocol/client` (an optional peer dependency) could not be imported. */
  | 'mcp_client_missing'
  /** The server needs a login the person has not given yet: the error carries `authorizationUrl` for `mcpLogin`. */
  | 'mcp_auth_required'
  /** The person (or the authorization server) refused the login (`access_denied`, a closed consent). */
  | 'mcp_auth_denied'
  /** A login could not be completed: an issuer mix-up, an unknown or expired login, a refused code or registration. */
  | 'mcp_auth_failed'
  /** The caller's signal stopped `mcp()` while it was connecting. */
  | 'aborted';

/** Codes a storage failure can carry; `storage_error` when no more specific one applies. */
export type StorageErrorCode =
  | 'storage_error'
  | 'storage_quota'
  | 'storage_uncloneable'
  | 'storage_blocked'
  | 'storage_unavailable'
  | 'storage_aborted'
  | 'storage_closed'
  | 'storage_version'
  /** A value given to a store is not one it holds (not a message, no key, a bad length): nothing was written. */
  | 'storage_invalid'
  /** What was read is not what the store writes (a row without its message, a gap): refused, nothing changed. */
  | 'storage_corrupt';

/** Codes a refused journal transition carries. */
export type JournalErrorCode = 'journal_conflict' | 'journal_missing';

/** Why a WebMCP operation failed; `duplicate_tool` and `aborted` mean what they mean elsewhere. */
export type WebMcpErrorCode = 'webmcp_unavailable' | 'webmcp_timeout' | 'webmcp_refused' | 'duplicate_tool' | 'aborted';

/** Codes of tab tools (`ambi-web/extension`). */
export type ExtensionErrorCode =
  /** The tab closed or navigated away (or its frame went) before the call ended, or was gone already. */
  | 'tab_gone'
  /** The tab is there but no content script of this extension listed its tools in time. */
  | 'tab_unavailable'
  /** The Chrome extension APIs are not available in this realm (a web page, say). */
  | 'extension_unavailable';

/** Codes of a Code Mode program's failure (`ProgramError`). */
export type ProgramErrorCode =
  /** The program ran in the sandbox past its `timeoutMs` and was stopped. */
  | 'program_timeout'
  /** The program threw (or did not compile, ran out of memory, awaited what never settles): the message says what, and the line. */
  | 'program_error'
  /** The sandbox could not start here (its worker or its WebAssembly refused, by a CSP without 'wasm-unsafe-eval', say). */
  | 'sandbox_unavailable'
  /** The caller's signal stopped the program. */
  | 'aborted';

/** Codes of a message's parts beyond text (`ContentError`). */
export type ContentErrorCode =
  /** A part that is not one: an unknown type, no bytes, an empty image, a URL that is neither `data:` nor `https:`, bytes that are not the image they claim. */
  | 'invalid_content'
  /** A request holds a part its engine does not take (an image for a text-only model): refused before it is sent. */
  | 'unsupported_content'
  /** A part over `maxPartBytes`, or a conversation whose parts pass `maxConversationBytes`. */
  | 'content_too_large';

/**
 * Every code an ambi-web error can carry. `isAmbiError(e, code)` takes only these, so a typo
 * fails to compile, and narrows `e.code` to the code given.
 */
export type AmbiErrorCode =
  | EngineErrorCode
  | 'http_error'
  | LocalModelErrorCode
  | McpErrorCode
  | StorageErrorCode
  | JournalErrorCode
  | WebMcpErrorCode
  | ExtensionErrorCode
  | ProgramErrorCode
  | ContentErrorCode
  // The tool core and the run.
  | 'tool_error'
  | 'duplicate_tool'
  | 'invalid_tool'
  | 'invalid_option'
  | 'invalid_output'
  | 'invalid_tags'
  | 'invalid_arguments'
  | 'unknown_tool'
  | 'crashed'
  | 'tool_not_allowed'
  | 'context_overflow'
  | 'conversation_busy'
  | 'max_iterations'
  /** The run's tokens passed `maxTokens`: no further model request was made. */
  | 'budget_exceeded'
  /** A replayed request differs from the recorded one, or the cassette holds no more requests (`replayEngine`). */
  | 'replay_mismatch'
  /** A cassette that is not one `cassette()` writes (a wrong type, too deep, an unknown version). */
  | 'invalid_cassette'
  | 'aborted'
  | 'suspended'
  | 'nothing_to_resume'
  | 'stream_ended'
  | 'events_busy'
  | 'duplicate_call_id'
  | 'leaf_without_run'
  | 'internal_error'
  // The worker runtime.
  | 'duplicate_run'
  | 'closed'
  | 'not_configured'
  | 'unknown_connection'
  | 'unknown_run'
  | 'worker_crashed'
  | 'worker_terminated'
  | 'worker_start_timeout'
  /** A shared runner's page tool that the tab's new page (after a navigation or a reload) did not register again. */
  | 'tool_gone'
  /** A shared runner led by another tab (where the browser has no SharedWorker): that tab closed before it answered, or its run could not be resumed. */
  | 'leader_gone'
  // The UI adapters (`ambi-web/ai-sdk`, `ambi-web/ag-ui`): a request they cannot act on; nothing of it is applied.
  /** An approval response or resume entry names no call that waits for a decision. */
  | 'unknown_approval'
  /** An AG-UI resume that leaves an open interrupt unanswered, or answers one with an unusable payload. */
  | 'invalid_resume'
  /** `useChat`'s regenerate: the conversation lives in the runner, which keeps the answer it gave. */
  | 'unsupported_trigger'
  /** A request with no text of the person's to run and no approval answered. */
  | 'empty_message'
  /** A UI message that is not one (no `parts`, `parts` not a list, a part without a `type`, an unknown role): nothing of the request is applied. */
  | 'invalid_message'
  // Tool result codes a WebMCP caller's error can carry.
  | 'denied'
  | 'outcome_unknown'
  | 'too_many_calls'
  /** A call proposed after untrusted content entered the model's context, of a tool whose `afterUntrusted` is `refuse`. */
  | 'untrusted_refused'
  /** A call's arguments name a held value (`{ "$held": "$N" }`) that its conversation does not hold: nothing ran. */
  | 'unknown_held';
