/**
 * What a page imports: what it needs to drive a runner worker (`createWorkerRunner`), its
 * tools, the engines' configs, MCP and WebMCP, and nothing of the loop, the parser or the
 * validator compiler (those load in the worker); and what a runner worker of the app's own
 * calls (`serveRunner`, `builtInEngines`, `standardExtensions`), which a page that does not
 * import it never carries. Everything here is also exported from `ambi-web` or, for what an
 * extension's or an engine's author needs, from `ambi-web/extend`.
 *
 * @packageDocumentation
 * @module ambi-web/worker
 */
export * from './page-entry.js';
// A runner worker of the app's own (its engine kinds, its extensions): what runs inside it, never on the page.
export { serveRunner, type ServeRunnerOptions } from './runner/serve-runner.js';
export { builtInEngines, type EngineFactories, type EngineFactory } from '../engines/engine-table.js';
export { standardExtensions } from '../agent/features.js';
export type { EngineDeps } from '../engines/build-engine.js';
export type { Engine, EngineEvent, EngineRequest } from '../engines/types.js';
export type { ExtensionLoader, RunSetup } from '../runner/run-setup.js';
export type { ImageDescriber } from '../runner/run-setup.js';
export type { RunExtension } from '../runner/extension.js';
