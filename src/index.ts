// The public API of ambi-web: everything public is exported here, and only here.

// Errors
export { AmbiError, isAmbiError } from './errors/ambi-error.js';
export { ToolError } from './errors/tool-error.js';
export { DuplicateToolError } from './errors/duplicate-tool-error.js';
export { InvalidToolError } from './errors/invalid-tool-error.js';

// Tools
export { defineTool, type ToolSpec } from './tools/define-tool.js';
export { ToolRegistry } from './tools/registry.js';
export { ToolManager, type ExecuteOptions } from './tools/tool-manager.js';
export { DEFAULT_POLICY } from './tools/policy.js';
export type {
  ArgsOf,
  JsonValue,
  ParametersSchema,
  Tool,
  ToolCall,
  ToolContext,
  ToolDefinition,
  ToolErrorCode,
  ToolFailure,
  ToolPolicy,
  ToolResult,
  ToolSuccess,
} from './tools/types.js';
