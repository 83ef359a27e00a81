// What the WebMCP tests share: the browser's API as an agent in the page reaches it, and cleanup.
import type { WebMcpRegisteredTool } from '../../src/webmcp/model-context.js';

type Context = {
  registerTool(tool: object, options?: { signal?: AbortSignal }): Promise<void>;
  getTools(): Promise<WebMcpRegisteredTool[]>;
  executeTool(tool: WebMcpRegisteredTool, input: object, options?: { signal?: AbortSignal }): Promise<string>;
};

/** `document.modelContext` of this page (or of a frame's document). */
export const modelContextOf = (doc: Document = document): Context => (doc as unknown as { modelContext: Context }).modelContext;

/** The names `getTools()` lists for this page's own window. */
export async function pageToolNames(): Promise<string[]> {
  return (await modelContextOf().getTools()).filter((tool) => tool.window === window).map((tool) => tool.name);
}

/** The tool `name` registered in this window, as `getTools()` lists it. */
export async function listedTool(name: string): Promise<WebMcpRegisteredTool> {
  const tool = (await modelContextOf().getTools()).find((t) => t.name === name && t.window === window);
  if (!tool) throw new Error(`no WebMCP tool "${name}" in this window`);
  return tool;
}

/** Call an offered tool as a browser agent does: find it with getTools, run it with executeTool. */
export async function callAsAgent(name: string, input: object, signal?: AbortSignal): Promise<string> {
  return modelContextOf().executeTool(await listedTool(name), input, signal ? { signal } : undefined);
}

/** What a call made with executeTool rejected with (its DOMException name), or 'resolved'. */
export async function rejectionOf(call: Promise<unknown>): Promise<string> {
  return call.then(
    () => 'resolved',
    (error: { name?: string }) => String(error?.name),
  );
}

type Execute = (input: object, client?: { signal?: AbortSignal }) => Promise<unknown>;

/**
 * Record the `execute` functions registered while `during` runs: executeTool loses a tool's
 * error message (Chromium gives `UnknownError`), so tests read it by calling `execute` directly.
 */
export function recordExecutes(): { get(name: string): Execute; stop(): void } {
  const context = modelContextOf();
  const original = context.registerTool;
  const seen = new Map<string, Execute>();
  context.registerTool = function (tool: object, options?: { signal?: AbortSignal }) {
    const { name, execute } = tool as { name: string; execute: Execute };
    seen.set(name, execute);
    return original.call(this, tool, options);
  };
  return {
    get: (name) => {
      const execute = seen.get(name);
      if (!execute) throw new Error(`"${name}" was not registered`);
      return execute;
    },
    stop: () => {
      delete (context as Partial<Context>).registerTool; // back to the prototype's
    },
  };
}

/** Aborted after each test: what a test registers or offers with it is withdrawn. */
export function cleanupSignal(): { signal: AbortSignal; withdraw(): void } {
  let controller = new AbortController();
  return {
    get signal() {
      return controller.signal;
    },
    withdraw() {
      controller.abort();
      controller = new AbortController();
    },
  };
}
