/**
 * The whole API: the in-process core (`Agent`, `ChatRunner`, registries, stores) for Node,
 * workers of your own and tests, and everything of `ambi-web/worker`. Everything public is
 * exported here, and only here.
 *
 * @packageDocumentation
 * @module ambi-web
 */

// Errors
export { AmbiError, isAmbiError } from './errors/ambi-error.js';
export type { AmbiErrorCode, ExtensionErrorCode, ProgramErrorCode } from './core/codes.js';
export { ToolError } from './errors/tool-error.js';
export { DuplicateToolError } from './errors/duplicate-tool-error.js';
export { InvalidToolError } from './errors/invalid-tool-error.js';
export { InvalidOptionError } from './errors/invalid-option-error.js';
export { InvalidOutputError } from './errors/invalid-output-error.js';
export { ContextOverflowError } from './errors/context-overflow-error.js';
export { ContentError } from './errors/content-error.js';
export type { ContentErrorCode } from './core/codes.js';

// Tools
export { defineTool, type ToolEffects, type ToolSpec, type ToolSpecBase } from './tools/define-tool.js';
export type { EffectsOrJsonRule, IsJsonCompatible, JsonOutputCheck, JsonOutputRule } from './tools/json-compatible.js';
export { ToolRegistry, type ToolRegistryOptions } from './tools/registry.js';
export { ToolManager, type ExecuteOptions, type ToolManagerOptions } from './call/tool-manager.js';
export type { AskContext, CallHooks, CallRun, CallVerdict, RunCall, StandingScope } from './call/types.js';
export type { ApprovalDecision, Approvals } from './call/approvals.js';
export type { Limiter } from './util/limiter.js';
export type { ArgsCheck, ArgsValidator } from './validation/types.js';
export type { RegisteredTool } from './tools/registry.js';
export type { StandardJSONSchemaConverter, StandardSchemaV1 } from './validation/standard-schema.js';
export { DEFAULT_POLICY } from './tools/policy.js';
export type { AfterUntrusted, ApprovalRule, ArgsOf, OnToolError, Quarantine, Tool, ToolContext, ToolErrorReport, ToolPolicy } from './tools/types.js';
export type { ValidationMode } from './validation/types.js';
export type { JsonValue, ParametersSchema, ToolCall, ToolDefinition, ToolErrorCode, ToolFailure, ToolResult, ToolSuccess } from './core/types.js';
export type { CallTarget } from './core/types.js';
export type { TargetRule } from './tools/types.js';

// Parser
export { TagToolCallParser, type TagParserOptions } from './parser/tag-parser.js';
export type { ParseError, ParsePart, ParseResult, ToolCallParser, ToolCallStream } from './parser/types.js';
export type { TagToolCallStream } from './parser/stream.js';
export { InvalidTagsError } from './errors/invalid-tags-error.js';

// Engines
export { openAICompatible, type OpenAICompatibleConfig, type OpenAICompatibleOptions } from './engines/openai/openai-compatible.js';
export { scriptedEngine, type ScriptedEngineConfig, type ScriptedReply, type ScriptedToolCall } from './engines/scripted/scripted.js';
export { createEngine, type EngineDeps } from './engines/create-engine.js';
export { replayEngine, type ReplayEngineConfig } from './engines/cassette/replay.js';
export type { Cassette, CassetteEngine, CassetteError, CassetteInteraction, CassetteRequest } from './engines/cassette/cassette.js';
export type { CassettePart } from './engines/cassette/cassette.js';
export { ReplayMismatchError } from './errors/replay-mismatch-error.js';
export type { EngineInfo } from './engines/engine-info.js';
export type { BuiltInEngineConfig, CustomEngineConfig, EngineConfig } from './engines/config.js';
export { builtInEngines, type EngineFactories, type EngineFactory } from './engines/engine-table.js';
export { promptApiEngine, type PromptApiConfig, type PromptApiOptions } from './engines/prompt-api/prompt-api.js';
export type { AnswerFormat, Engine, EngineEvent, EngineRequest } from './engines/types.js';
export type { FinishReason, RunUsage, ToolChoice, Usage } from './core/types.js';
export { EngineError, type EngineErrorCode } from './errors/engine-error.js';
export { EngineHttpError } from './errors/engine-http-error.js';
export { redactURL } from './engines/url-redact.js';
export {
  localModel,
  type LocalModelConfig,
  type LocalModelDeps,
  type LocalModelInfo,
  type LocalModelOptions,
  type LocalModelProgress,
} from './engines/local/local-model.js';
export { createLocalEngine, type LocalEngine } from './engines/local/engine.js';
export { downloadLocalModel, type DownloadLocalModelOptions } from './engines/local/download.js';
export { deleteCachedLocalModel, isLocalModelCached } from './engines/local/cache.js';
export type { CallTags } from './core/types.js';
export { CHATML_TEMPLATE, type TemplateSource } from './engines/local/template.js';
export { LocalModelError, type LocalModelErrorCode } from './errors/local-model-error.js';

// Agents and the loop
export { Agent, type AgentOptions } from './agent/agent.js';
export { ChatRunner, type ChatRunnerOptions, type ChildRunOptions, type Run, type RunOptions, type RunOutput, type RunTracer } from './runner/chat-runner.js';
export type { JsonOutputSchema, OutputOf, OutputSchema } from './runner/output-types.js';
export type { ContextBudget } from './core/types.js';
export { ConcurrencyBudget } from './util/limiter.js';
export { MemoryConversationStore, type ConversationStore, type ConversationTail } from './store/memory-conversation-store.js';
export type { RunEvent, RunFailure, UntrustedContext, UntrustedFlow, UntrustedSource } from './core/run.js';
// The run's one extension point (resume, typed answers, context budgets are extensions)
export type { AnswerVerdict, History, Opening, ResumePoint, RunExtension, RunOutcome, TurnRequest } from './runner/extension.js';
export type { ExtensionLoader, RunAgent, RunSetup } from './runner/run-setup.js';
export { standardExtensions } from './agent/features.js';
export type { UsageMeter } from './runner/usage-meter.js';
export type { KeyedToolCall, ModelTurn } from './runner/model-turn.js';
export type { RunResult } from './core/run.js';
export type { LeafOptions } from './leaf/leaf-options.js';
export { ToolNotAllowedError } from './errors/tool-not-allowed-error.js';
// Beyond text: images and files in a run's input, beside a tool's output, and what an engine takes
export type { ContentPart, FilePart, ImagePart, MediaPart, PartKinds, RunInput, TextPart } from './core/parts.js';
export { OutputWithParts, withParts } from './parts/with-parts.js';
export type { ImageDescriber } from './runner/run-setup.js';
export type { ScriptedEngineOptions } from './engines/scripted/scripted.js';
export { ConversationBusyError } from './errors/conversation-busy-error.js';
export type { LockMode } from './runner/conversation-lock.js';
export type { CallHandle, RunScope, TraceContext } from './tools/types.js';
export type { AssistantMessage, Message, SystemMessage, ToolMessage, UserMessage } from './core/types.js';
export { MaxIterationsError } from './errors/max-iterations-error.js';
export { BudgetExceededError } from './errors/budget-exceeded-error.js';
export { RunAbortedError } from './errors/run-aborted-error.js';
export { RunSuspendedError } from './errors/run-suspended-error.js';
export { NothingToResumeError } from './errors/nothing-to-resume-error.js';
export type { ApproveOptions, DenyOptions } from './call/approvals.js';
export type { ApprovalRecord, ApprovalStore, PendingApproval, RecordedDecision, StandingDecision } from './store/approval-types.js';
export { MemoryApprovalStore } from './store/memory-approval-store.js';
export { IndexedDbApprovalStore } from './store/indexeddb-approval-store.js';
// Untrusted content held as values (`untrusted: 'hold'`)
export type { HeldEntry, HeldInfo, HeldRecord, HeldValueStore } from './store/held-types.js';
export { MemoryHeldStore } from './store/memory-held-store.js';
export { IndexedDbHeldStore } from './store/indexeddb-held-store.js';
export type { HeldArgument, HeldValue } from './core/run.js';
export type { HeldHandle } from './core/types.js';
export type { HeldArguments } from './tools/types.js';
export type { UntrustedMode } from './runner/run-setup.js';
export type { ResolvedArguments } from './call/types.js';
export type { RunTreeState } from './runner/run-tree.js';
export { INSPECT_HELD } from './extensions/untrusted/hold/inspect-tool.js';
export type { CodeModeOption, CodeModeOptions } from './codemode/code-mode-options.js';

// Worker runtime
export { createWorkerRunner, WorkerRunner, type WorkerRunnerOptions, type WorkerToolsOptions } from './worker/page/worker-runner.js';
export { serveRunner, type ServeRunnerOptions } from './worker/runner/serve-runner.js';
export type { WorkerLeafOptions } from './worker/wire/protocol.js';
export { exposeTools } from './worker/tool-host/expose-tools.js';
export type { WorkerSource } from './worker/tool-host/tool-worker.js';

// WebMCP (the browser's `document.modelContext`): offer tools to the browser's agents, use the page's
export { webMcpAvailable } from './webmcp/availability.js';
export { offerWebMcpTools, type OfferedWebMcpTools, type OfferWebMcpToolsOptions } from './webmcp/offer.js';
export type { WebMcpApprovalRequest, WebMcpApprove } from './webmcp/offer-call.js';
export { listWebMcpTools, type ListWebMcpToolsOptions } from './webmcp/list.js';
export type { WebMcpTool, WebMcpToolInfo } from './webmcp/page-tool.js';
export { WebMcpError, type WebMcpErrorCode } from './errors/webmcp-error.js';

// Browser extensions (Manifest V3): a content script's tools, called from an extension page (`runner.tabTools`)
export { exposeTabTools, type ExposedTabTools } from './extension/expose-tab-tools.js';
export type { TabTools, TabToolsOptions } from './extension/tab-tools.js';

// MCP servers as tools (the client, an optional peer dependency, loads on first use)
export { mcpServer, type McpServerConfig, type McpToolPolicy } from './mcp/config.js';
export type { McpConnection, McpConnectOptions } from './mcp/connection.js';
export { McpError, type McpErrorCode } from './errors/mcp-error.js';
export { browserOAuth, type BrowserOAuth, type BrowserOAuthOptions } from './mcp/auth/oauth-config.js';
export { mcpLogin, pendingMcpLogin, type McpLoginOptions } from './mcp/auth/login-window.js';
export { finishMcpLogin, type FinishMcpLoginOptions, type McpLoginFinished } from './mcp/auth/login-callback.js';
export { mcpLogout, type McpLogoutOptions, type McpLogoutResult } from './mcp/auth/logout.js';
export type { McpLoginRequest } from './mcp/auth/auth-failure.js';

// Stores (IndexedDB via idb, and in memory)
export { IndexedDbSnapshotStore } from './store/indexeddb-snapshot-store.js';
export { MemorySnapshotStore } from './store/memory-snapshot-store.js';
export { IndexedDbConversationStore, type ConversationInfo } from './store/indexeddb-conversation-store.js';
export { IndexedDbToolCallJournal } from './store/indexeddb-tool-call-journal.js';
export { MemoryToolCallJournal } from './store/memory-tool-call-journal.js';
export { closeAmbiDatabase, DEFAULT_DATABASE_NAME, type OpenDatabaseOptions } from './store/database.js';
export type { JournalBegin } from './store/journal-transitions.js';
export type { JournalEntry, JournalState, LeafSnapshot, SnapshotStore, ToolCallJournal } from './store/types.js';
export { StorageError, type StorageErrorCode } from './errors/storage-error.js';
export { JournalError, type JournalErrorCode } from './errors/journal-error.js';

// UI adapters: the AI SDK's useChat (`ambi-web/ai-sdk`; `ai` is an optional peer, of which only types are used) and AG-UI (`ambi-web/ag-ui`)
export { ambiChatTransport, type AmbiChatTransportOptions } from './ai-sdk/chat-transport.js';
export { agentRunner, type ChatRunOptions, type ConversationRunner } from './ui/conversation-runner.js';
// Any AI SDK language model (`@ai-sdk/anthropic`, `@ai-sdk/google`, `@ai-sdk/openai`, …) as an engine, driven by its doStream
export { languageModelEngine, type LanguageModelEngineOptions } from './ai-sdk/language-model/language-model-engine.js';
export type { AiSdkLanguageModel } from './ai-sdk/language-model/model-shape.js';
export { toAgUiEvents, type AgUiEventsOptions, type AgUiRun } from './ag-ui/to-ag-ui-events.js';
export { AG_UI_PROTOCOL_VERSION, type AgUiEvent, type AgUiEventBase, type AgUiInterrupt, type AgUiResumeEntry, type AgUiRunOutcome } from './ag-ui/events.js';
