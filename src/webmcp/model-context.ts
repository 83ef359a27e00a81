// The browser's WebMCP API as Chromium 156 has it (`--enable-features=WebMCPTesting`),
// typed from what it was seen to do, not from a draft.

/** The hints a WebMCP tool carries; Chromium fills every one in (false when not given). */
export interface WebMcpAnnotations {
  readOnlyHint?: boolean;
  /** What the tool returns comes from outside the page's control (say, user content). */
  untrustedContentHint?: boolean;
}

/** What a caller of `execute` hands over besides the input: aborted when the caller gives up. */
export interface WebMcpClient {
  signal?: AbortSignal;
}

/** What `registerTool` takes. The browser JSON-serialises what `execute` returns. */
export interface WebMcpToolInit {
  name: string;
  description: string;
  inputSchema: object;
  annotations?: WebMcpAnnotations;
  execute(input: Record<string, unknown>, client?: WebMcpClient): unknown;
}

/**
 * A tool as `getTools()` lists it: this page's and its same-origin frames'. In Chromium 156 a
 * plain dictionary whose `window` says which document registered it, and which `executeTool`
 * finds the tool by (with `name`). Chrome's documentation announces for Chromium 160 an
 * interface object instead, `window` renamed `source`, that neither spreads nor clones: read
 * its properties one by one and hand the object itself back to `executeTool`. Never read
 * properties of the window: a named-property lookup can reach a cross-origin frame and throw.
 */
export interface WebMcpRegisteredTool {
  name: string;
  title: string;
  description: string;
  /** Absent (or null) for a tool registered without one. */
  inputSchema?: object | null;
  annotations?: WebMcpAnnotations | null;
  origin: string;
  window?: Window;
  source?: Window;
}

/** The window whose document registered `tool`. */
export function sourceWindow(tool: WebMcpRegisteredTool): Window | undefined {
  return tool.source ?? tool.window;
}

/** `document.modelContext`. */
export interface ModelContext {
  /** Rejects with `InvalidStateError` on a taken or malformed name; aborting `signal` unregisters. */
  registerTool(tool: WebMcpToolInit, options?: { signal?: AbortSignal }): Promise<void>;
  /** May never settle when called in a document's first script run. */
  getTools(): Promise<WebMcpRegisteredTool[]>;
  /** Resolves with the tool's result as JSON text; a tool that throws gives `UnknownError`, its message lost. */
  executeTool(tool: WebMcpRegisteredTool, input: object, options?: { signal?: AbortSignal }): Promise<string>;
}
