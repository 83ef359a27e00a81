/**
 * What an author of an extension, an engine, a store or a parser needs, as interfaces: the run's
 * extension point and its views of a run and a turn, the call pipeline's types, the engine
 * contract, the stores' contracts, the parser's parts; and the less-used types, errors and
 * constants of the API that an app rarely names. `ambi-web` keeps what an app calls; every name
 * here is public and documented (see CHANGELOG.md for the names that moved here from `ambi-web`).
 *
 * @packageDocumentation
 * @module ambi-web/extend
 */

// The run's one extension point (resume, typed answers, context budgets, untrusted content, traces are extensions)
export type { RunExtension } from '../runner/extension.js';
export type { Continuation, ContinuedCall, History, RunOutcome, RunStart, TurnEnd, TurnRequest } from '../runner/extension.js';
export type { RunView } from '../runner/run-view.js';
export type { ExtensionLoader, ImageDescriber, RunAgent, RunSetup } from '../runner/run-setup.js';
export type { RunTreeState } from '../runner/run-tree.js';
export type { UsageMeter } from '../runner/usage-meter.js';
export type { ChildRunOptions } from '../runner/chat-runner.js';
export { standardExtensions } from '../agent/features.js';
export type { ExtensionErrorCode, ProgramErrorCode } from '../core/codes.js';

// The call pipeline (src/call): what a call carries through it, and what a run gives it
export type { AskContext, CallHooks, CallRun, CallVerdict, Recorded, RunCall, StandingScope } from '../call/types.js';
export type { ExecuteOptions, ToolManagerOptions } from '../call/tool-manager.js';
export type { ApprovalDecision, Approvals, DecisionCheck } from '../call/approvals.js';
export type { CallHandle, InputAsk, RunScope, TargetRule, ToolErrorReport, TraceContext } from '../tools/types.js';
export type { Limiter } from '../util/limiter.js';
export type { ArgsCheck, ArgsValidator } from '../validation/types.js';
export type { RegisteredTool, ToolRegistryOptions } from '../tools/registry.js';
export type { StandardJSONSchemaConverter } from '../validation/standard-schema.js';
export type { ToolEffects, ToolSpecBase } from '../tools/define-tool.js';
export type { EffectsOrJsonRule, IsJsonCompatible, JsonOutputCheck, JsonOutputRule } from '../tools/json-compatible.js';
export type { ToolFailure, ToolSuccess } from '../core/types.js';
export { DEFAULT_POLICY } from '../tools/policy.js';

// Engines: the contract, the table of kinds, and the built-in kinds' less-used parts
export type { Engine } from '../engines/types.js';
export type { AnswerFormat, EngineEvent, EngineRequest } from '../engines/types.js';
export { createEngine, type EngineDeps } from '../engines/create-engine.js';
export { builtInEngines, type EngineFactories, type EngineFactory } from '../engines/engine-table.js';
export type { EngineInfo } from '../engines/engine-info.js';
export type { BuiltInEngineConfig, CustomEngineConfig } from '../engines/config.js';
export type { CallTags, FinishReason } from '../core/types.js';
export type { EngineErrorCode } from '../errors/engine-error.js';
export { EngineHttpError } from '../errors/engine-http-error.js';
export { redactURL } from '../engines/url-redact.js';
export type { OpenAICompatibleOptions } from '../engines/openai/openai-compatible.js';
export type { ScriptedEngineOptions, ScriptedToolCall } from '../engines/scripted/scripted.js';
export type { PromptApiOptions } from '../engines/prompt-api/prompt-api.js';
export type { CassetteEngine, CassetteError, CassetteInteraction, CassettePart, CassetteRequest } from '../engines/cassette/cassette.js';
export { ReplayMismatchError } from '../errors/replay-mismatch-error.js';
export type { LocalModelDeps, LocalModelInfo, LocalModelOptions } from '../engines/local/local-model.js';
export { createLocalEngine, type LocalEngine } from '../engines/local/engine.js';
export type { DownloadLocalModelOptions } from '../engines/local/download.js';
export { CHATML_TEMPLATE, type TemplateSource } from '../engines/local/template.js';
export { LocalModelError, type LocalModelErrorCode } from '../errors/local-model-error.js';

// Parsers
export type { ParseError, ParsePart, ParseResult, ToolCallStream } from '../parser/types.js';
export type { TagToolCallStream } from '../parser/stream.js';
export type { TagParserOptions } from '../parser/tag-parser.js';
export { InvalidTagsError } from '../errors/invalid-tags-error.js';

// Stores: the contracts a store of your own keeps, and the built-in ones behind a conversation
export type { ConversationStore, ConversationTail } from '../store/memory-conversation-store.js';
export type { JournalEntry, JournalState, ToolCallJournal } from '../store/types.js';
export type { JournalAsk, JournalBegin } from '../store/journal-transitions.js';
export type { RecordedDecision, StandingDecision } from '../store/approval-types.js';
export type { HeldEntry, HeldInfo, HeldRecord, HeldValueStore } from '../store/held-types.js';
export { MemoryHeldStore } from '../store/memory-held-store.js';
export { IndexedDbHeldStore } from '../store/indexeddb-held-store.js';
export type { OpenDatabaseOptions } from '../store/database.js';
export { StorageError, type StorageErrorCode } from '../errors/storage-error.js';
export { JournalError, type JournalErrorCode } from '../errors/journal-error.js';

// The less-used types of a run, its parts and held values
export type { JsonOutputSchema } from '../runner/output-types.js';
export type { LockMode } from '../runner/conversation-lock.js';
export type { SystemMessage, HeldHandle } from '../core/types.js';
export type { UntrustedFlow, UntrustedSource } from '../core/run.js';
export type { PartKinds } from '../core/parts.js';
export type { ContentErrorCode } from '../core/codes.js';
export { INSPECT_HELD } from '../extensions/untrusted/hold/inspect-tool.js';

// The less-used types of the worker runtime, WebMCP, tab tools and MCP
export type { WorkerLeafOptions } from '../worker/wire/protocol.js';
export type { OfferedWebMcpTools } from '../webmcp/offer.js';
export type { WebMcpApprovalRequest, WebMcpApprove } from '../webmcp/offer-call.js';
export type { WebMcpToolInfo } from '../webmcp/page-tool.js';
export type { WebMcpErrorCode } from '../errors/webmcp-error.js';
export type { ExposedTabTools } from '../extension/expose-tab-tools.js';
export type { McpErrorCode } from '../errors/mcp-error.js';
export type { BrowserOAuth } from '../mcp/auth/oauth-config.js';
export type { McpLoginOptions } from '../mcp/auth/login-window.js';
export type { FinishMcpLoginOptions, McpLoginFinished } from '../mcp/auth/login-callback.js';
export type { McpLogoutOptions, McpLogoutResult } from '../mcp/auth/logout.js';
export type { McpLoginRequest } from '../mcp/auth/auth-failure.js';
