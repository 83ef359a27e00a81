/**
 * What an app calls: the in-process core (`Agent`, `ChatRunner`, registries, stores) for Node,
 * workers of your own and tests, the worker runtime, MCP, WebMCP, tab tools and the UI adapters'
 * entry points, with the types an app writes. At most 150 names (tests/node/public-surface.test.ts);
 * what an author of an extension, an engine, a store or a parser needs, and the API's less-used
 * types, are in `ambi-web/extend`.
 *
 * @packageDocumentation
 * @module ambi-web
 */

// Errors
export { AmbiError, isAmbiError } from './errors/ambi-error.js';
export type { AmbiErrorCode } from './core/codes.js';
export { ToolError } from './errors/tool-error.js';
export { DuplicateToolError } from './errors/duplicate-tool-error.js';
export { InvalidToolError } from './errors/invalid-tool-error.js';
export { InvalidOptionError } from './errors/invalid-option-error.js';
export { InvalidOutputError } from './errors/invalid-output-error.js';
export { ContextOverflowError } from './errors/context-overflow-error.js';
export { ContentError } from './errors/content-error.js';

// Tools
export { defineTool, type ToolSpec } from './tools/define-tool.js';
export { ToolRegistry } from './tools/registry.js';
export { ToolManager } from './call/tool-manager.js';
export type { StandardSchemaV1 } from './validation/standard-schema.js';
export type { AfterUntrusted, ApprovalRule, ArgsOf, OnToolError, Quarantine, Tool, ToolContext, ToolPolicy } from './tools/types.js';
export type { ValidationMode } from './validation/types.js';
export type { JsonValue, ParametersSchema, ToolCall, ToolDefinition, ToolErrorCode, ToolResult } from './core/types.js';
export type { CallTarget } from './core/types.js';

// Parser
export { TagToolCallParser } from './parser/tag-parser.js';
export type { ToolCallParser } from './parser/types.js';

// Engines
export { openAICompatible, type OpenAICompatibleConfig } from './engines/openai/openai-compatible.js';
export { scriptedEngine, type ScriptedEngineConfig, type ScriptedReply } from './engines/scripted/scripted.js';
export { replayEngine, type ReplayEngineConfig } from './engines/cassette/replay.js';
export type { Cassette } from './engines/cassette/cassette.js';
export type { EngineConfig } from './engines/config.js';
export { promptApiEngine, type PromptApiConfig } from './engines/prompt-api/prompt-api.js';
export type { Engine } from './engines/types.js';
export type { RunUsage, ToolChoice, Usage } from './core/types.js';
export { EngineError } from './errors/engine-error.js';
export { localModel, type LocalModelConfig, type LocalModelProgress } from './engines/local/local-model.js';
export { downloadLocalModel } from './engines/local/download.js';
export { deleteCachedLocalModel, isLocalModelCached } from './engines/local/cache.js';

// Agents and the loop
export { Agent, type AgentOptions } from './agent/agent.js';
export { ChatRunner, type ChatRunnerOptions, type Run, type RunOptions, type RunOutput, type RunTracer } from './runner/chat-runner.js';
export type { OutputOf, OutputSchema } from './runner/output-types.js';
export type { ContextBudget } from './core/types.js';
export { ConcurrencyBudget } from './util/limiter.js';
export { MemoryConversationStore } from './store/memory-conversation-store.js';
export type { RunEvent, RunFailure, UntrustedContext } from './core/run.js';
// The run's one extension point (its views of a run, a turn and a call are in `ambi-web/extend`)
export type { RunExtension } from './runner/extension.js';
export type { RunResult } from './core/run.js';
export type { LeafOptions } from './leaf/leaf-options.js';
export { ToolNotAllowedError } from './errors/tool-not-allowed-error.js';
// Beyond text: images and files in a run's input, beside a tool's output, and what an engine takes
export type { ContentPart, FilePart, ImagePart, MediaPart, RunInput, TextPart } from './core/parts.js';
export { OutputWithParts, withParts } from './parts/with-parts.js';
export { ConversationBusyError } from './errors/conversation-busy-error.js';
export type { InputField, InputRequest, InputSchema } from './core/types.js';
export type { AssistantMessage, Message, ToolMessage, UserMessage } from './core/types.js';
export { MaxIterationsError } from './errors/max-iterations-error.js';
export { BudgetExceededError } from './errors/budget-exceeded-error.js';
export { RunAbortedError } from './errors/run-aborted-error.js';
export { RunSuspendedError } from './errors/run-suspended-error.js';
export { NothingToResumeError } from './errors/nothing-to-resume-error.js';
export type { ApproveOptions, DenyOptions } from './call/approvals.js';
export type { PendingApproval } from './store/approval-types.js';
// Untrusted content held as values (`untrusted: 'hold'`)
export type { HeldArgument, HeldValue } from './core/run.js';
export type { HeldArguments } from './tools/types.js';
export type { UntrustedMode } from './runner/run-setup.js';
export type { CodeModeOption, CodeModeOptions } from './codemode/code-mode-options.js';

// Worker runtime
export { createWorkerRunner, WorkerRunner, type WorkerRunnerOptions, type WorkerToolsOptions } from './worker/page/worker-runner.js';
export { serveRunner, type ServeRunnerOptions } from './worker/runner/serve-runner.js';
export type { RunInfo, RunnerWorkerFactory } from './worker/shared-runner/protocol.js';
export { exposeTools } from './worker/tool-host/expose-tools.js';
export type { WorkerSource } from './worker/tool-host/tool-worker.js';

// WebMCP (the browser's `document.modelContext`): offer tools to the browser's agents, use the page's
export { webMcpAvailable } from './webmcp/availability.js';
export { offerWebMcpTools, type OfferWebMcpToolsOptions } from './webmcp/offer.js';
export { listWebMcpTools, type ListWebMcpToolsOptions } from './webmcp/list.js';
export type { WebMcpTool } from './webmcp/page-tool.js';
export { WebMcpError } from './errors/webmcp-error.js';

// Browser extensions (Manifest V3): a content script's tools, called from an extension page (`runner.tabTools`)
export { exposeTabTools } from './extension/expose-tab-tools.js';
export type { TabTools, TabToolsOptions } from './extension/tab-tools.js';

// MCP servers as tools (the client, an optional peer dependency, loads on first use)
export { mcpServer, type McpServerConfig, type McpToolPolicy } from './mcp/config.js';
export type { McpConnection, McpConnectOptions } from './mcp/connection.js';
export { McpError } from './errors/mcp-error.js';
export { browserOAuth, type BrowserOAuthOptions } from './mcp/auth/oauth-config.js';
export { mcpLogin, pendingMcpLogin } from './mcp/auth/login-window.js';
export { finishMcpLogin } from './mcp/auth/login-callback.js';
export { mcpLogout } from './mcp/auth/logout.js';

// Stores (IndexedDB via idb, and in memory)
export { IndexedDbSnapshotStore } from './store/indexeddb-snapshot-store.js';
export { MemorySnapshotStore } from './store/memory-snapshot-store.js';
export { IndexedDbConversationStore, type ConversationInfo } from './store/indexeddb-conversation-store.js';
export { IndexedDbToolCallJournal } from './store/indexeddb-tool-call-journal.js';
export { MemoryToolCallJournal } from './store/memory-tool-call-journal.js';
export { closeAmbiDatabase, DEFAULT_DATABASE_NAME } from './store/database.js';
export type { LeafSnapshot, SnapshotStore } from './store/types.js';

// UI adapters: the AI SDK's useChat (`ambi-web/ai-sdk`; `ai` is an optional peer, of which only types are used) and AG-UI (`ambi-web/ag-ui`)
export { ambiChatTransport } from './ai-sdk/chat-transport.js';
// Any AI SDK language model (`@ai-sdk/anthropic`, `@ai-sdk/google`, `@ai-sdk/openai`, …) as an engine, driven by its doStream
export { languageModelEngine } from './ai-sdk/language-model/language-model-engine.js';
export { toAgUiEvents } from './ag-ui/to-ag-ui-events.js';
