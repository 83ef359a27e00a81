import { AmbiError } from '../../errors/ambi-error.js';
import { McpError } from '../../errors/mcp-error.js';
import { onAbort } from '../../util/abort-source.js';
import type { McpLoginOutcome } from './auth-records.js';
import type { McpLoginRequest } from './auth-failure.js';
import { newestLogin, readLogin, serverKey, updateLogin } from './auth-store.js';
import { isLoginMessage, LOGIN_CHANNEL } from './login-channel.js';

/** How `mcpLogin` shows the authorization server's page. */
export interface McpLoginOptions {
  /** `popup` (default): a window over the app, which stays as it is; `redirect`: the page itself goes there and comes back. */
  mode?: 'popup' | 'redirect';
  /** The popup's `window.open` features (default: 500 × 650). */
  features?: string;
  /** Stops waiting (the popup is closed): rejects with code `aborted`. */
  signal?: AbortSignal;
}

/** How often a popup is checked for having been closed by the person. */
const CLOSED_POLL_MS = 400;
/** After the popup closed, how long a finished login's message may still be on its way. */
const CLOSED_GRACE_MS = 1_000;

/**
 * Give the login an `mcp_auth_required` error asks for: call it from the person's click. In a
 * popup (default) it resolves once the app's redirect page (`finishMcpLogin`) has stored the
 * tokens, then connect again (`runner.mcp(config)`); `mode: 'redirect'` sends the page itself and
 * never resolves. Rejects with `mcp_auth_denied` (refused), `mcp_auth_failed`, `aborted`, or
 * `mcp_auth_required` again when the window was blocked or closed before the login ended.
 *
 * @example
 * ```ts
 * // Needs: an MCP server at https://mcp.example.com/mcp behind an OAuth 2.1 authorization server, a button#sign-in, and the app's page /oauth/callback calling finishMcpLogin().
 * import { browserOAuth, createWorkerRunner, isAmbiError, mcpLogin, mcpServer, openAICompatible } from 'ambi-web/worker';
 *
 * const runner = createWorkerRunner({ engine: openAICompatible({ baseURL: 'http://localhost:11434/v1', model: 'qwen2.5:7b' }) });
 * const server = mcpServer({ url: 'https://mcp.example.com/mcp', auth: browserOAuth({ redirectUri: `${location.origin}/oauth/callback` }) });
 * try {
 *   await runner.mcp(server);
 * } catch (error) {
 *   if (!isAmbiError(error, 'mcp_auth_required')) throw error;
 *   document.querySelector('button#sign-in')?.addEventListener('click', async () => {
 *     await mcpLogin(error);
 *     console.log((await runner.mcp(server)).tools);
 *   });
 * }
 * ```
 */
export async function mcpLogin(request: Pick<McpLoginRequest, 'authorizationUrl'> | Error, options: McpLoginOptions = {}): Promise<void> {
  const url = loginUrl(request);
  const state = url.searchParams.get('state') as string;
  if (options.signal?.aborted) throw aborted(options.signal.reason);
  if (options.mode === 'redirect') {
    await updateLogin(state, { returnTo: location.href });
    location.assign(url.href);
    return new Promise<void>(() => {});
  }
  // Opened before anything is awaited: the browser lets a page open a window only in the click's turn.
  const popup = window.open(url.href, 'ambi-web-mcp-login', options.features ?? 'popup,width=500,height=650');
  if (!popup) throw again(request, 'the browser blocked the login window: call mcpLogin from a click, or pass mode: "redirect"');
  return new Promise<void>((resolve, reject) => {
    const channel = new BroadcastChannel(LOGIN_CHANNEL);
    let timer: ReturnType<typeof setInterval> | undefined;
    let unhook: (() => void) | undefined;
    const settle = (outcome: McpLoginOutcome | Error) => {
      channel.close();
      clearInterval(timer);
      unhook?.();
      if (outcome instanceof Error) reject(outcome);
      else if (outcome.ok) resolve();
      else reject(new McpError(outcome.code, outcome.message));
    };
    channel.onmessage = (event) => {
      if (isLoginMessage(event.data) && event.data.state === state) settle(event.data.outcome);
    };
    if (options.signal)
      unhook = onAbort(options.signal, () => {
        popup.close();
        settle(aborted(options.signal?.reason));
      });
    timer = setInterval(() => {
      if (!popup.closed) return;
      clearInterval(timer);
      // The redirect page closes the window itself once it has finished: its outcome is on record.
      setTimeout(() => {
        void readLogin(state)
          .then((login) => settle(login?.outcome ?? again(request, 'the login window was closed before the login finished')))
          .catch((error: unknown) => settle(error instanceof Error ? error : new Error(String(error))));
      }, CLOSED_GRACE_MS);
    }, CLOSED_POLL_MS);
  });
}

/** The login the app can offer for `serverUrl` (begun by a connection or a call that needed it, not yet finished and not expired). */
export async function pendingMcpLogin(serverUrl: string): Promise<McpLoginRequest | undefined> {
  const login = await newestLogin(serverKey(serverUrl));
  return login ? { server: login.server, authorizationUrl: login.authorizationUrl } : undefined;
}

/** The request's URL, if it is one a login opens: http(s), with the `state` the login was kept under. */
function loginUrl(request: Pick<McpLoginRequest, 'authorizationUrl'> | Error): URL {
  const text = (request as { authorizationUrl?: unknown } | null)?.authorizationUrl;
  let url: URL | undefined;
  try {
    url = typeof text === 'string' ? new URL(text) : undefined;
  } catch {
    url = undefined;
  }
  if (!url || !['http:', 'https:'].includes(url.protocol) || !url.searchParams.get('state'))
    throw new McpError(
      'mcp_auth_failed',
      'mcpLogin: give it the mcp_auth_required error (or pendingMcpLogin(url)): its authorizationUrl is not an http(s) login URL',
    );
  return url;
}

function again(request: Pick<McpLoginRequest, 'authorizationUrl'> | Error, why: string): McpError {
  const error = new McpError('mcp_auth_required', `The login is still to give: ${why}`);
  const { server, authorizationUrl } = request as Partial<McpLoginRequest>;
  return Object.assign(error, { ...(server !== undefined ? { server } : {}), authorizationUrl });
}

function aborted(reason: unknown): AmbiError {
  return new AmbiError('aborted', 'mcpLogin was aborted', { cause: reason });
}
