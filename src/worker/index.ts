// The page-side entry `ambi-web/worker`: what a page needs to drive a runner worker, and
// nothing of the loop, the parser or the validator compiler (those load in the worker).
// Everything here is also exported from `src/index.ts`, the one definition of the public API.
export { AmbiError, isAmbiError } from '../errors/ambi-error.js';
export { ToolError } from '../errors/tool-error.js';
export { DuplicateToolError } from '../errors/duplicate-tool-error.js';
export { InvalidToolError } from '../errors/invalid-tool-error.js';
export { defineTool, type ToolSpec } from '../tools/define-tool.js';
export { openAICompatible, type OpenAICompatibleConfig, type OpenAICompatibleOptions } from '../engines/openai-compatible.js';
export { scriptedEngine, type ScriptedEngineConfig, type ScriptedReply, type ScriptedToolCall } from '../engines/scripted.js';
export type { EngineConfig } from '../engines/config.js';
export { createWorkerRunner, WorkerRunner, type WorkerRunnerOptions, type WorkerToolsOptions } from './worker-runner.js';
export type { WorkerLeafOptions } from './protocol.js';
export { exposeTools } from './expose-tools.js';
export type { WorkerSource } from './tool-worker.js';
export { mcpServer, type McpServerConfig, type McpToolPolicy } from '../mcp/config.js';
export type { McpConnection } from '../mcp/connection.js';
export { McpError, type McpErrorCode } from '../errors/mcp-error.js';
export type { Run, RunOptions } from '../runner/chat-runner.js';
export type { RunEvent } from '../runner/events.js';
export type { RunResult } from '../runner/run-result.js';
export type { Message } from '../runner/messages.js';
export type { JsonValue, Tool, ToolCall, ToolContext, ToolResult, ValidationMode } from '../tools/types.js';
export type { StandardSchemaV1 } from '../tools/standard-schema.js';
