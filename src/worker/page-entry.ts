/**
 * The page's half of `ambi-web/worker`: what a page needs to drive a runner worker, and nothing of
 * the runner. A build entry of its own (not a package entry): what it reaches, the runner's code
 * never shares a chunk with, so a page that imports `ambi-web/worker` never carries the runner
 * whatever its bundler does with `serveRunner`'s chunk (see vite.config.ts).
 *
 * @module
 */
export { AmbiError, isAmbiError } from '../errors/ambi-error.js';
export type { AmbiErrorCode } from '../core/codes.js';
export { ToolError } from '../errors/tool-error.js';
export { DuplicateToolError } from '../errors/duplicate-tool-error.js';
export { InvalidToolError } from '../errors/invalid-tool-error.js';
export { InvalidOptionError } from '../errors/invalid-option-error.js';
export { ContentError } from '../errors/content-error.js';
export type { ContentErrorCode } from '../core/codes.js';
export type { ContentPart, FilePart, ImagePart, MediaPart, PartKinds, RunInput, TextPart } from '../core/parts.js';
export { OutputWithParts, withParts } from '../parts/with-parts.js';
export type { ScriptedEngineOptions } from '../engines/scripted/scripted.js';
export { defineTool, type ToolSpec } from '../tools/define-tool.js';
export { openAICompatible, type OpenAICompatibleConfig, type OpenAICompatibleOptions } from '../engines/openai/openai-compatible.js';
export { scriptedEngine, type ScriptedEngineConfig, type ScriptedReply, type ScriptedToolCall } from '../engines/scripted/scripted.js';
export type { BuiltInEngineConfig, CustomEngineConfig, EngineConfig } from '../engines/config.js';
export { promptApiEngine, type PromptApiConfig, type PromptApiOptions } from '../engines/prompt-api/prompt-api.js';
export { replayEngine, type ReplayEngineConfig } from '../engines/cassette/replay.js';
export type { Cassette, CassetteEngine, CassetteError, CassetteInteraction, CassetteRequest } from '../engines/cassette/cassette.js';
export type { CassettePart } from '../engines/cassette/cassette.js';
export { redactURL } from '../engines/url-redact.js';
export { createWorkerRunner, WorkerRunner, type WorkerRunnerOptions, type WorkerToolsOptions } from './page/worker-runner.js';
export type { WorkerLeafOptions } from './wire/protocol.js';
export type { RunInfo, RunnerWorkerFactory } from './shared-runner/protocol.js';
export { exposeTools } from './tool-host/expose-tools.js';
export type { WorkerSource } from './tool-host/tool-worker.js';
export type { TabTools, TabToolsOptions } from '../extension/tab-tools.js';
export { mcpServer, type McpServerConfig, type McpToolPolicy } from '../mcp/config.js';
export type { McpConnection, McpConnectOptions } from '../mcp/connection.js';
export { McpError, type McpErrorCode } from '../errors/mcp-error.js';
export { browserOAuth, type BrowserOAuth, type BrowserOAuthOptions } from '../mcp/auth/oauth-config.js';
export { mcpLogin, pendingMcpLogin, type McpLoginOptions } from '../mcp/auth/login-window.js';
export { mcpLogout, type McpLogoutOptions, type McpLogoutResult } from '../mcp/auth/logout.js';
export type { McpLoginRequest } from '../mcp/auth/auth-failure.js';
export type { Run, RunOptions, RunTracer } from '../runner/chat-runner.js';
export type { ApproveOptions, DenyOptions } from '../call/approvals.js';
export type { PendingApproval } from '../store/approval-types.js';
export type { RunEvent, UntrustedContext, UntrustedFlow, UntrustedSource } from '../core/run.js';
export type { InputField, InputRequest, InputSchema } from '../core/types.js';
export type { RunResult } from '../core/run.js';
export type { HeldArgument, HeldValue } from '../core/run.js';
export type { HeldHandle } from '../core/types.js';
export type { HeldArguments } from '../tools/types.js';
export type { UntrustedMode } from '../runner/run-setup.js';
export type { CodeModeOption, CodeModeOptions } from '../codemode/code-mode-options.js';
export type { Message } from '../core/types.js';
export type { AfterUntrusted, OnToolError, Quarantine, Tool, ToolContext, ToolErrorReport } from '../tools/types.js';
export type { ValidationMode } from '../validation/types.js';
export type { JsonValue, RunUsage, ToolCall, ToolResult, Usage } from '../core/types.js';
export type { StandardSchemaV1 } from '../validation/standard-schema.js';
// What a page keeps of its own: its stores (read on the page, as the demo's lists do) and the local model's download.
export { IndexedDbConversationStore, type ConversationInfo } from '../store/indexeddb-conversation-store.js';
export { IndexedDbSnapshotStore } from '../store/indexeddb-snapshot-store.js';
export type { LeafSnapshot } from '../store/types.js';
export { localModel, type LocalModelConfig, type LocalModelOptions, type LocalModelProgress } from '../engines/local/local-model.js';
export { downloadLocalModel, type DownloadLocalModelOptions } from '../engines/local/download.js';
// WebMCP: offer tools to the browser's agents, use the tools pages declare.
export { webMcpAvailable } from '../webmcp/availability.js';
export { offerWebMcpTools, type OfferedWebMcpTools, type OfferWebMcpToolsOptions } from '../webmcp/offer.js';
export type { WebMcpApprovalRequest, WebMcpApprove } from '../webmcp/offer-call.js';
export { listWebMcpTools, type ListWebMcpToolsOptions } from '../webmcp/list.js';
export type { WebMcpTool, WebMcpToolInfo } from '../webmcp/page-tool.js';
export { WebMcpError, type WebMcpErrorCode } from '../errors/webmcp-error.js';
