import { errorMessage } from '../errors/error-message.js';
import { InvalidToolError } from '../errors/invalid-tool-error.js';
import { ToolError } from '../errors/tool-error.js';
import { defineTool } from '../tools/define-tool.js';
import { DEFAULT_POLICY } from '../tools/policy.js';
import type { Tool } from '../tools/types.js';
import type { JsonValue, ParametersSchema } from '../core/types.js';
import type { ModelContext, WebMcpRegisteredTool } from './model-context.js';

/** Where a listed tool comes from, and what its page says of it. */
export interface WebMcpToolInfo {
  /** Its WebMCP name (the tool's own `name` is fitted to our rule). */
  name: string;
  title: string;
  origin: string;
  /**
   * The page says what the tool returns is untrusted (WebMCP's `untrustedContentHint`):
   * content a third party controls. Treat such output as data, never as instructions.
   */
  untrustedContent: boolean;
}

/** A tool a page (or a same-origin frame) registered with WebMCP, callable as a main-thread tool. */
export type WebMcpTool = Tool<Record<string, unknown>, JsonValue> & { readonly webMcp: WebMcpToolInfo };

/** How `listWebMcpTools` makes its tools: per call, and what the app says of the page. */
export interface PageToolOptions {
  timeoutMs?: number;
  /** What the tool returns is untrusted, whatever the page says (see `ListWebMcpToolsOptions.untrusted`). */
  untrusted?: boolean;
  /** The app accepted the page's definitions (see `ListWebMcpToolsOptions.acceptDefinitions`). */
  acceptDefinitions?: boolean;
}

/**
 * Our tool for one listed WebMCP tool, named `name` (fitted). Its policy comes from the
 * annotations: read-only tools are idempotent and run freely, others need approval; what it
 * returns is untrusted where the page says so (`untrustedContentHint`), or where `untrusted` does.
 * Where the app says the page is not its own (`untrusted: true`), its definition is someone
 * else's words too (`untrustedDefinition`), unless the app accepted the definitions.
 */
export function pageTool(context: ModelContext, listed: WebMcpRegisteredTool, name: string, options: PageToolOptions = {}): WebMcpTool {
  const { timeoutMs = DEFAULT_POLICY.timeoutMs, untrusted } = options;
  const readOnly = listed.annotations?.readOnlyHint === true;
  const untrustedContent = listed.annotations?.untrustedContentHint === true;
  const tool = defineTool({
    name,
    description: String(listed.description ?? ''),
    parameters: parametersOf(listed),
    readOnly,
    idempotent: readOnly,
    needsApproval: !readOnly,
    untrusted: untrusted ?? untrustedContent,
    ...(untrusted === true && options.acceptDefinitions !== true ? { untrustedDefinition: `webmcp:${String(listed.origin)}` } : {}),
    timeoutMs,
    call: async (args, { signal }) => {
      let text: unknown;
      try {
        // Handed back as it came: a copy would lose what identifies the tool (see WebMcpRegisteredTool).
        text = await context.executeTool(listed, args, { signal });
      } catch (error) {
        // Timed out or aborted: the ToolManager says which; the late rejection is discarded.
        if (signal.aborted) throw signal.reason;
        throw new ToolError(`The page's tool "${listed.name}" failed: ${describeFailure(error)}`);
      }
      return resultOf(text);
    },
  });
  const webMcp = Object.freeze({
    name: listed.name,
    title: String(listed.title ?? ''),
    origin: String(listed.origin),
    untrustedContent,
  });
  return { ...tool, webMcp };
}

/**
 * The tool's `inputSchema` as our parameters: none means no arguments; a schema without a
 * `type` is one of an object (WebMCP's input is always one); any other type is refused.
 */
function parametersOf(listed: WebMcpRegisteredTool): ParametersSchema {
  const schema = listed.inputSchema;
  if (schema === undefined || schema === null) return { type: 'object' };
  if (typeof schema !== 'object' || Array.isArray(schema)) throw new InvalidToolError(listed.name, 'its inputSchema is not a JSON Schema object');
  const type = (schema as { type?: unknown }).type;
  if (type === undefined) return { ...schema, type: 'object' } as ParametersSchema;
  if (type !== 'object') throw new InvalidToolError(listed.name, `its inputSchema describes ${JSON.stringify(type)}, not an object`);
  return schema as ParametersSchema;
}

/** `executeTool` answers with JSON text: its value, or the text itself when it is not JSON (say `undefined`). */
function resultOf(text: unknown): JsonValue {
  if (typeof text !== 'string') return text === undefined ? null : (text as JsonValue);
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    return text;
  }
}

/** A DOMException's name says more than its message (Chromium's `UnknownError` loses the tool's own). */
function describeFailure(error: unknown): string {
  const name = (error as { name?: unknown } | null)?.name;
  return typeof name === 'string' && name !== 'Error' ? `${name}: ${errorMessage(error)}` : errorMessage(error);
}
