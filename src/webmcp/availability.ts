import { WebMcpError } from '../errors/webmcp-error.js';
import type { ModelContext } from './model-context.js';

/** This page's `document.modelContext`, if the browser has WebMCP. */
export function modelContext(): ModelContext | undefined {
  if (typeof document === 'undefined') return undefined;
  const context = (document as { modelContext?: unknown }).modelContext;
  const usable = typeof context === 'object' && context !== null && typeof (context as ModelContext).registerTool === 'function';
  return usable ? (context as ModelContext) : undefined;
}

/** Whether this page can offer and list WebMCP tools (`document.modelContext` exists). */
export function webMcpAvailable(): boolean {
  return modelContext() !== undefined;
}

/**
 * `document.modelContext`, or a `webmcp_unavailable` error saying how to get it; also when
 * it lacks one of the `methods` the caller needs (a polyfill may offer only `registerTool`).
 */
export function requireModelContext(...methods: ReadonlyArray<keyof ModelContext>): ModelContext {
  const context = modelContext();
  if (!context) {
    throw new WebMcpError(
      'webmcp_unavailable',
      'WebMCP is not available here: there is no document.modelContext (Chromium exposes it with the WebMCP feature enabled, e.g. --enable-features=WebMCPTesting)',
    );
  }
  const missing = methods.filter((method) => typeof context[method] !== 'function');
  if (missing.length > 0) throw new WebMcpError('webmcp_unavailable', `document.modelContext has no ${missing.join(' or ')} here`);
  return context;
}
