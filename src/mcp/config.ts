import { McpError } from '../errors/mcp-error.js';
import { displayUrl } from './display-url.js';
import { checkOAuth, type BrowserOAuth } from './auth/oauth-config.js';
import type { AfterUntrusted, HeldArguments } from '../tools/types.js';

/** Policy fields that override what a server's annotations imply, for one tool or for all (`'*'`). */
export interface McpToolPolicy {
  idempotent?: boolean;
  readOnly?: boolean;
  needsApproval?: boolean;
  timeoutMs?: number;
  maxRetries?: number;
  retryDelayMs?: number;
  /** What the tool returns may hold others' words (default: the server's `openWorldHint`, true when absent). */
  untrusted?: boolean;
  /** A call proposed after untrusted content was read: `allow`, `ask` (default unless readOnly) or `refuse`. */
  afterUntrusted?: AfterUntrusted;
  /** In `untrusted: 'hold'` mode, per top-level argument, what a call carrying a held value there does (see `Tool.heldArguments`). The app's say only: a server's annotations never set it. */
  heldArguments?: HeldArguments;
  /** `'plain'`: the tool's output never repeats its arguments (see `Tool.heldOutput`). */
  heldOutput?: 'plain';
}

/** An MCP server reached over Streamable HTTP, as plain data (it crosses to the runner worker). */
export interface McpServerConfig {
  /** The server's endpoint, e.g. `https://example.com/mcp`. */
  url: string;
  /** Default: the name the server gives itself. */
  name?: string;
  /** Sent with every request (a static bearer token may go here: `{ Authorization: 'Bearer …' }`; with `auth`, no `Authorization`). */
  headers?: Record<string, string>;
  /** A login by OAuth 2.1, in the browser: `browserOAuth({ redirectUri, ... })` (see docs/mcp.md, OAuth). */
  auth?: BrowserOAuth;
  /** An allow-list of the server's tool names; a name the server does not have is ignored. */
  tools?: string[];
  /** Registered names become `${prefix}_${name}`. */
  prefix?: string;
  /** Overrides by server tool name, or `'*'` for every tool (a tool's own entry wins). */
  policy?: Record<string, McpToolPolicy>;
  /** The default per-call timeout of this server's tools, and the bound on connecting (default 15 000 ms). */
  timeoutMs?: number;
  /** The longest tool description the model is shown; a longer one is cut, with a `warning` (default 2 000 characters). */
  maxDescriptionChars?: number;
  /**
   * The most this server's tools may put in every request (names, descriptions and parameter
   * schemas, in characters): tools past it, in the server's order, are left out, with a
   * `warning` (default 40 000, about 10 000 tokens).
   */
  maxPromptChars?: number;
  /**
   * The person (or the app, for a server it runs) has read this server's tool definitions when
   * connecting and accepts them: an untrusted tool's definition then exposes no request (its
   * results stay untrusted). Pinning holds the definitions to what was listed: one that changes
   * after connection is withdrawn until `refresh()`, which accepts the list as it is then. Default
   * false: a request that offers an untrusted tool of this server is exposed, naming the server.
   */
  acceptDefinitions?: boolean;
}

const POLICY_KEYS = new Set<keyof McpToolPolicy>([
  'idempotent',
  'readOnly',
  'needsApproval',
  'timeoutMs',
  'maxRetries',
  'retryDelayMs',
  'untrusted',
  'afterUntrusted',
  'heldArguments',
  'heldOutput',
]);
const AFTER_UNTRUSTED: ReadonlySet<unknown> = new Set(['allow', 'ask', 'refuse']);

/**
 * Describe an MCP server to connect to with `agent.mcp()` or `runner.mcp()`; checked here, so a mistake shows where it is made.
 *
 * @example
 * ```ts
 * import { createWorkerRunner, mcpServer, openAICompatible } from 'ambi-web/worker';
 *
 * const runner = createWorkerRunner({ engine: openAICompatible({ baseURL: 'http://localhost:11434/v1', model: 'qwen2.5:7b' }) });
 * const connection = await runner.mcp(
 *   mcpServer({
 *     url: 'http://127.0.0.1:3001/mcp', // `npm run mcp-demo-server` in a checkout of ambi-web
 *     tools: ['echo', 'get-sum'], // an allow-list
 *     policy: { '*': { needsApproval: false } }, // over what the server's annotations say
 *   }),
 * );
 * console.log(connection.tools); // ['echo', 'get-sum']
 * await connection.close();
 * ```
 */
export function mcpServer(config: McpServerConfig): McpServerConfig {
  const fail = (detail: string): never => {
    throw new McpError('invalid_mcp_config', `mcpServer: ${detail}`);
  };
  if (typeof config !== 'object' || config === null) fail('expects an object with a `url`');
  const { url, name, headers, auth, tools, prefix, policy, timeoutMs, maxDescriptionChars, maxPromptChars, acceptDefinitions } = config;
  if (typeof url !== 'string' || !isHttpUrl(url)) fail(`url must be an http(s) URL (got ${typeof url === 'string' ? displayUrl(url) : typeof url})`);
  if (name !== undefined && (typeof name !== 'string' || name === '')) fail('name must be a non-empty string');
  if (headers !== undefined && !isStringRecord(headers)) fail('headers must map header names to strings');
  if (auth !== undefined) checkOAuth(auth, 'mcpServer');
  if (auth !== undefined && Object.keys(headers ?? {}).some((header) => header.toLowerCase() === 'authorization'))
    fail('headers must not set Authorization when auth is given: the login supplies it');
  if (tools !== undefined && !(Array.isArray(tools) && tools.every((t) => typeof t === 'string'))) fail('tools must be an array of tool names');
  if (prefix !== undefined && (typeof prefix !== 'string' || prefix === '')) fail('prefix must be a non-empty string');
  if (timeoutMs !== undefined && !(Number.isFinite(timeoutMs) && timeoutMs > 0)) fail('timeoutMs must be a positive number');
  if (acceptDefinitions !== undefined && typeof acceptDefinitions !== 'boolean') fail('acceptDefinitions must be true or false');
  for (const [field, value] of Object.entries({ maxDescriptionChars, maxPromptChars })) {
    if (value !== undefined && !(Number.isSafeInteger(value) && value > 0)) fail(`${field} must be a whole number > 0`);
  }
  if (policy !== undefined) {
    if (typeof policy !== 'object' || policy === null || Array.isArray(policy)) fail('policy must map tool names (or "*") to policy fields');
    for (const [tool, fields] of Object.entries(policy)) {
      if (typeof fields !== 'object' || fields === null) fail(`policy["${tool}"] must be an object`);
      const unknown = Object.keys(fields).filter((key) => !POLICY_KEYS.has(key as keyof McpToolPolicy));
      if (unknown.length > 0) fail(`policy["${tool}"] has unknown field(s) ${unknown.join(', ')}; known: ${[...POLICY_KEYS].join(', ')}`);
      const { untrusted, afterUntrusted } = fields as McpToolPolicy;
      if (untrusted !== undefined && typeof untrusted !== 'boolean') fail(`policy["${tool}"].untrusted must be true or false`);
      if (afterUntrusted !== undefined && !AFTER_UNTRUSTED.has(afterUntrusted)) fail(`policy["${tool}"].afterUntrusted must be "allow", "ask" or "refuse"`);
    }
  }
  // A copy of plain data: what the caller keeps mutating later is not what was checked.
  return structuredClone({ ...config });
}

function isHttpUrl(text: string): boolean {
  try {
    const { protocol } = new URL(text);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

function isStringRecord(value: unknown): value is Record<string, string> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.values(value).every((v) => typeof v === 'string');
}
