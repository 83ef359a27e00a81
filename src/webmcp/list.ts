import { InvalidOptionError } from '../errors/invalid-option-error.js';
import { WebMcpError } from '../errors/webmcp-error.js';
import { requireModelContext } from './availability.js';
import { afterLoadWithin, checkWaitMs } from './bounded-wait.js';
import { fitToolName } from './fit-name.js';
import { sourceWindow, type WebMcpRegisteredTool } from './model-context.js';
import { isOffered } from './offered-names.js';
import { pageTool, type WebMcpTool } from './page-tool.js';

/** Which WebMCP tools `listWebMcpTools` returns, and how they are called. */
export interface ListWebMcpToolsOptions {
  /** Only these WebMCP names (as the page registered them). */
  include?: readonly string[];
  /** Not these WebMCP names. */
  exclude?: readonly string[];
  /** Per call of a listed tool; default 15 000. */
  timeoutMs?: number;
  /** How long `getTools()` may take to settle, the document's load included; default 5 000. */
  waitMs?: number;
  /**
   * Treat what every listed tool returns as untrusted (others' words), whatever the page says:
   * `true` for a page you do not control. Default: each tool's `untrustedContentHint`.
   */
  untrusted?: boolean;
  /**
   * With `untrusted: true`, the tools' definitions (names, descriptions, schemas) are the page's
   * words too, and a request that offers them is exposed, naming the page (`webmcp:<origin>`):
   * unless the person has read and accepted them, which `true` says. Default false.
   */
  acceptDefinitions?: boolean;
}

/**
 * The tools this page and its same-origin frames registered with WebMCP (not the ones this
 * page offered), as main-thread tools for `runner.tool()` or `agent.tool()`. Names are fitted
 * to our rule; two tools that end up with one name reject with `duplicate_tool`.
 */
export async function listWebMcpTools(options: ListWebMcpToolsOptions = {}): Promise<WebMcpTool[]> {
  const context = requireModelContext('getTools', 'executeTool');
  const include = checkNames('include', options.include);
  const exclude = checkNames('exclude', options.exclude);
  const timeoutMs = checkTimeout(options.timeoutMs);
  const waitMs = checkWaitMs(options.waitMs);
  if (options.untrusted !== undefined && typeof options.untrusted !== 'boolean') throw new InvalidOptionError('untrusted', 'must be true or false');
  const { acceptDefinitions } = options;
  if (acceptDefinitions !== undefined && typeof acceptDefinitions !== 'boolean') throw new InvalidOptionError('acceptDefinitions', 'must be true or false');
  const listed = checkListed(await afterLoadWithin('document.modelContext.getTools()', waitMs, () => context.getTools()));
  const chosen = listed.filter((tool) => !ownOffer(tool) && (!include || include.has(tool.name)) && !exclude?.has(tool.name));
  const byName = new Map<string, WebMcpRegisteredTool>();
  for (const tool of chosen) {
    const name = fitToolName(tool.name);
    const other = byName.get(name);
    if (other) throw collision(other, tool, name);
    byName.set(name, tool);
  }
  const made = {
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    ...(options.untrusted !== undefined ? { untrusted: options.untrusted } : {}),
    ...(acceptDefinitions !== undefined ? { acceptDefinitions } : {}),
  };
  return [...byName].map(([name, tool]) => pageTool(context, tool, name, made));
}

/** A tool this page offered itself: listed again by `getTools()`, from this window. */
function ownOffer(tool: WebMcpRegisteredTool): boolean {
  return sourceWindow(tool) === window && isOffered(tool.name);
}

function collision(first: WebMcpRegisteredTool, second: WebMcpRegisteredTool, name: string): WebMcpError {
  const where = (tool: WebMcpRegisteredTool) => (sourceWindow(tool) === window ? 'this page' : 'a frame');
  const both =
    first.name === second.name
      ? `"${first.name}" is registered twice (by ${where(first)} and ${where(second)})`
      : `"${first.name}" and "${second.name}" both become "${name}"`;
  return new WebMcpError('duplicate_tool', `WebMCP tool names collide: ${both}; leave one out with \`exclude\``);
}

/** What `getTools()` answered, if it is a list of tools with names (a polyfill's may not be). */
function checkListed(listed: unknown): WebMcpRegisteredTool[] {
  const tools = Array.isArray(listed) ? (listed as unknown[]) : undefined;
  if (!tools?.every((tool) => typeof (tool as { name?: unknown } | null)?.name === 'string')) {
    throw new WebMcpError('webmcp_refused', 'document.modelContext.getTools() did not answer with a list of named tools');
  }
  return tools as WebMcpRegisteredTool[];
}

function checkNames(option: string, value: unknown): Set<string> | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || !value.every((name) => typeof name === 'string')) throw new InvalidOptionError(option, 'must be an array of tool names');
  return new Set(value);
}

function checkTimeout(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'number' && Number.isFinite(value) && value > 0) return value;
  throw new InvalidOptionError('timeoutMs', `must be a positive number of milliseconds, not ${String(value)}`);
}
