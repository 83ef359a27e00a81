// The entry `ambi-web/extension`, for Manifest V3 extensions: what a content script needs to serve
// its tools to the extension's pages (`exposeTabTools`), and the types of `runner.tabTools(…)`,
// which an extension page calls on the WorkerRunner of `ambi-web/worker`. Nothing of the loop,
// the parser or ajv: a content script carries only its tools, their validation and this wire.
// Everything here is also exported from `src/index.ts`, the one definition of the public API.
export { AmbiError, isAmbiError } from '../errors/ambi-error.js';
export type { AmbiErrorCode, ExtensionErrorCode } from '../core/codes.js';
export { ToolError } from '../errors/tool-error.js';
export { defineTool, type ToolSpec } from '../tools/define-tool.js';
export type { Tool, ToolContext } from '../tools/types.js';
export { exposeTabTools, type ExposedTabTools } from './expose-tab-tools.js';
export type { TabTools, TabToolsOptions } from './tab-tools.js';
