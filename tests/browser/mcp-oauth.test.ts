// MCP servers behind a real OAuth 2.1 authorization server (oidc-provider on loopback), in real
// Chromium: the connection lives in the runner worker, the login opens in a popup from the page's
// click, the app's redirect page (fixtures/oauth-callback.html) finishes it.
import { afterEach, describe, expect, inject, it } from 'vitest';
import { commands, userEvent } from 'vitest/browser';
import { browserOAuth, finishMcpLogin, isAmbiError, mcpLogin, mcpLogout, mcpServer, pendingMcpLogin, type RunEvent } from '../../src/index.js';
import type { McpLoginRequest } from '../../src/extend/index.js';
import { callOf, runnersClosedAfterEach } from '../support/worker-runners.js';
import '../support/oauth/login-commands.js';

const dcr = inject('oauthDcr');
const cimd = inject('oauthCimd');
const control = inject('oauthControlUrl');
const corsMissing = inject('oauthCorsMissing');
const runners = runnersClosedAfterEach();
const redirectUri = new URL('./fixtures/oauth-callback.html', import.meta.url).href;
const oauth = browserOAuth({ redirectUri });

type Seen = Record<'dcr' | 'cimd', { requests: string[]; accepted: number; refused: number }> & { documents: number };
const seen = async (): Promise<Seen> => (await fetch(`${control}/seen`)).json();
const setTtl = (server: 'dcr' | 'cimd', ttl: { access?: number; refresh?: number }) =>
  fetch(`${control}/ttl?server=${server}${ttl.access ? `&access=${ttl.access}` : ''}${ttl.refresh ? `&refresh=${ttl.refresh}` : ''}`, { method: 'POST' });

/** Connect, expecting the login to be asked for; its error. */
async function loginAsked(connect: () => Promise<unknown>): Promise<McpLoginRequest & Error> {
  const error = await connect().then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(isAmbiError(error, 'mcp_auth_required'), String(error)).toBe(true);
  return error as McpLoginRequest & Error;
}

/** The person clicks "Sign in" (mcpLogin in the click's turn), then answers the popup. */
async function signIn(request: McpLoginRequest, issuer: string, action: 'approve' | 'deny' | 'close' = 'approve'): Promise<unknown> {
  const button = document.createElement('button');
  button.textContent = 'Sign in';
  document.body.append(button);
  let login: Promise<unknown> | undefined;
  button.onclick = () => {
    login = mcpLogin(request).then(
      () => 'signed in',
      (error: unknown) => error,
    );
  };
  await userEvent.click(button);
  button.remove();
  const said = await commands.oauthConsent(issuer, action);
  // A refusal leaves the redirect page saying why; otherwise it closed the window.
  expect(said === 'closed' || action === 'deny', said).toBe(true);
  return login;
}

afterEach(async () => {
  await Promise.all([mcpLogout(dcr.mcpUrl, { revoke: false }), mcpLogout(cimd.mcpUrl, { revoke: false })]);
  await Promise.all([setTtl('dcr', { access: 600, refresh: 3600 }), setTtl('cimd', { access: 600, refresh: 3600 })]);
});

// A login takes a few seconds of clicking; the refresh tests wait out token lifetimes.
describe('MCP login in a popup (oidc-provider, real Chromium)', { timeout: 40_000 }, () => {
  it('a server that needs a login fails mcp_auth_required with its login; after the popup, the worker connects with a token for that server', async () => {
    const runner = runners.runnerWith([callOf('whoami'), 'done']);
    const server = mcpServer({ url: dcr.mcpUrl, auth: oauth });
    const required = await loginAsked(() => runner.mcp(server));
    expect(required.server).toBe(dcr.mcpUrl);
    const login = new URL(required.authorizationUrl);
    expect(login.origin).toBe(dcr.issuer);
    // PKCE, and the resource indicator of the server (RFC 8707).
    expect(login.searchParams.get('code_challenge_method')).toBe('S256');
    expect(login.searchParams.get('resource')).toBe(dcr.mcpUrl);
    // The message names the server, not the login URL (a failed call's message reaches the model).
    expect(required.message).not.toContain(login.searchParams.get('state') ?? '-');
    expect(await pendingMcpLogin(dcr.mcpUrl)).toEqual({ server: dcr.mcpUrl, authorizationUrl: required.authorizationUrl });

    expect(await signIn(required, dcr.issuer)).toBe('signed in');
    const connection = await runner.mcp(server);
    expect(connection.tools).toEqual(['whoami']);
    const result = await runner.run('who am I?').result;
    expect(JSON.parse(String(result.toolResults[0]?.ok && result.toolResults[0].output))).toEqual({ sub: 'alice', aud: dcr.mcpUrl, scopes: ['mcp:tools'] });
    // No metadata document was given: the app registered itself (the fallback).
    expect((await seen()).dcr.requests).toContain('POST /reg');
    expect(await pendingMcpLogin(dcr.mcpUrl)).toBeUndefined();
  });

  it('with a client ID metadata document the server accepts, the app never registers', async () => {
    const clientMetadataUrl = `${cimd.metadataDocuments}/client/${btoa(redirectUri).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '')}.json`;
    const server = mcpServer({ url: cimd.mcpUrl, auth: browserOAuth({ redirectUri, clientMetadataUrl }) });
    const runner = runners.runnerWith([]);
    const required = await loginAsked(() => runner.mcp(server));
    expect(new URL(required.authorizationUrl).searchParams.get('client_id')).toBe(clientMetadataUrl);
    expect(await signIn(required, cimd.issuer)).toBe('signed in');
    expect((await runner.mcp(server)).tools).toEqual(['whoami']);
    const after = await seen();
    expect(after.cimd.requests).not.toContain('POST /reg');
    expect(after.documents).toBeGreaterThan(0);
  });

  it('a refused consent rejects mcpLogin with mcp_auth_denied, and the server still asks for the login', async () => {
    const runner = runners.runnerWith([]);
    const server = mcpServer({ url: dcr.mcpUrl, auth: oauth });
    const required = await loginAsked(() => runner.mcp(server));
    const outcome = await signIn(required, dcr.issuer, 'deny');
    expect(isAmbiError(outcome, 'mcp_auth_denied'), String(outcome)).toBe(true);
    await loginAsked(() => runner.mcp(server));
  });

  it('a login window closed before the end rejects with mcp_auth_required, carrying the same login', async () => {
    const runner = runners.runnerWith([]);
    const required = await loginAsked(() => runner.mcp(mcpServer({ url: dcr.mcpUrl, auth: oauth })));
    const outcome = (await signIn(required, dcr.issuer, 'close')) as McpLoginRequest;
    expect(isAmbiError(outcome, 'mcp_auth_required'), String(outcome)).toBe(true);
    expect(outcome.authorizationUrl).toBe(required.authorizationUrl);
  });

  it('a login by redirect (a page that blocks popups): the tab goes to the authorization server and comes back signed in', async () => {
    const runner = runners.runnerWith([]);
    const server = mcpServer({ url: dcr.mcpUrl, auth: oauth });
    const required = await loginAsked(() => runner.mcp(server));
    const start = `${new URL('./fixtures/oauth-start.html', import.meta.url).href}?login=${encodeURIComponent(required.authorizationUrl)}`;
    expect(await commands.oauthRedirectLogin(start, dcr.issuer)).toBe('back: signed in');
    expect((await runner.mcp(server)).tools).toEqual(['whoami']);
  });

  it('two runner workers whose token is due refresh it once between them (the server lock), and neither is refused', async () => {
    await setTtl('dcr', { access: 4 });
    const server = mcpServer({ url: dcr.mcpUrl, auth: oauth });
    const first = runners.runnerWith([callOf('whoami'), 'done']);
    const second = runners.runnerWith([callOf('whoami'), 'done']);
    expect(await signIn(await loginAsked(() => first.mcp(server)), dcr.issuer)).toBe('signed in');
    await Promise.all([first.mcp(server), second.mcp(server)]);
    const before = (await seen()).dcr;
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    const results = await Promise.all([first.run('who?').result, second.run('who?').result]);
    expect(results.map((r) => r.toolResults[0]?.ok)).toEqual([true, true]);
    const after = (await seen()).dcr;
    const refreshes = after.requests.filter((r) => r === 'POST /token').length - before.requests.filter((r) => r === 'POST /token').length;
    expect(refreshes).toBe(1);
    expect(after.refused).toBe(before.refused);
  });

  it('an access token near its end is refreshed before a call, under the server lock', async () => {
    await setTtl('dcr', { access: 4 });
    const runner = runners.runnerWith([callOf('whoami'), callOf('whoami'), 'done']);
    const server = mcpServer({ url: dcr.mcpUrl, auth: oauth });
    expect(await signIn(await loginAsked(() => runner.mcp(server)), dcr.issuer)).toBe('signed in');
    await runner.mcp(server);
    const before = (await seen()).dcr;
    // Half the token's life spent: the next request refreshes it first, and the server never refuses it.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    const result = await runner.run('twice').result;
    expect(result.toolResults.map((r) => r.ok)).toEqual([true, true]);
    const after = (await seen()).dcr;
    expect(after.requests.filter((r) => r === 'POST /token').length).toBeGreaterThan(before.requests.filter((r) => r === 'POST /token').length);
    expect(after.refused).toBe(before.refused);
  });

  it('an expired refresh token makes the next call fail mcp_auth_required, and the login is offered again', async () => {
    await setTtl('dcr', { access: 2, refresh: 3 });
    const runner = runners.runnerWith([callOf('whoami'), 'done']);
    const server = mcpServer({ url: dcr.mcpUrl, auth: oauth });
    expect(await signIn(await loginAsked(() => runner.mcp(server)), dcr.issuer)).toBe('signed in');
    await runner.mcp(server);
    await new Promise((resolve) => setTimeout(resolve, 3_500));
    const run = runner.run('who?');
    const events: RunEvent[] = [];
    for await (const event of run.events) events.push(event);
    const failed = (await run.result).toolResults[0];
    expect(failed).toMatchObject({ ok: false, error: { code: 'mcp_auth_required' } });
    expect(JSON.stringify(events)).not.toMatch(/eyJ/); // no JWT in any event
    const offered = await pendingMcpLogin(dcr.mcpUrl);
    expect(offered?.authorizationUrl).toMatch(new RegExp(`^${dcr.issuer}/`));
  });

  it('mcpLogout forgets the tokens and revokes them: the next call needs a login again', async () => {
    const runner = runners.runnerWith([callOf('whoami'), 'done']);
    const server = mcpServer({ url: dcr.mcpUrl, auth: oauth });
    expect(await signIn(await loginAsked(() => runner.mcp(server)), dcr.issuer)).toBe('signed in');
    await runner.mcp(server);
    expect(await mcpLogout(dcr.mcpUrl)).toEqual({ forgotten: true, revoked: true });
    expect((await seen()).dcr.requests).toContain('POST /token/revocation');
    const result = await runner.run('who?').result;
    expect(result.toolResults[0]).toMatchObject({ ok: false, error: { code: 'mcp_auth_required' } });
  });
});

describe('the CORS a server must allow for browsers', () => {
  it('a server whose CORS does not allow a header MCP sends fails mcp_connect_failed naming that header', { timeout: 40_000 }, async () => {
    const runner = runners.runnerWith([]);
    const server = mcpServer({ url: corsMissing.mcpUrl, auth: oauth });
    // Signed in first: the handshake goes through (it carries no protocol header), the next request does not.
    expect(await signIn(await loginAsked(() => runner.mcp(server)), corsMissing.issuer)).toBe('signed in');
    const error = await runner.mcp(server).then(
      () => undefined,
      (thrown: unknown) => thrown as Error,
    );
    await mcpLogout(corsMissing.mcpUrl, { revoke: false });
    expect(error).toMatchObject({ code: 'mcp_connect_failed' });
    expect(error?.message).toContain(`the request header "${corsMissing.missing}"`);
  });
});

describe('MCP login: what a hostile callback or page cannot do', () => {
  it('a callback naming another authorization server (an issuer mix-up) is refused before its code is used, and stays refused', async () => {
    const runner = runners.runnerWith([]);
    const required = await loginAsked(() => runner.mcp(mcpServer({ url: dcr.mcpUrl, auth: oauth })));
    const state = new URL(required.authorizationUrl).searchParams.get('state') ?? '';
    const tokenRequests = async () => {
      const now = await seen();
      return [...now.dcr.requests, ...now.cimd.requests].filter((r) => r === 'POST /token').length;
    };
    const before = await tokenRequests();
    const callback = `${redirectUri}?code=code-from-elsewhere&state=${state}&iss=${encodeURIComponent(cimd.issuer)}`;
    const refused = await finishMcpLogin({ url: callback, navigate: false }).catch((error: Error) => error);
    expect(refused).toMatchObject({ code: 'mcp_auth_failed' });
    expect((refused as Error).message).toContain('mix-up');
    // The issuer received is an attacker's word: never repeated.
    expect((refused as Error).message).not.toContain(cimd.issuer);
    expect(await tokenRequests()).toBe(before);
    // The same callback again (a reload): the same refusal, still no code redeemed.
    await expect(finishMcpLogin({ url: callback, navigate: false })).rejects.toMatchObject({ code: 'mcp_auth_failed' });
    expect(await tokenRequests()).toBe(before);
  });

  it('a callback with a state no login began is refused', async () => {
    await expect(finishMcpLogin({ url: `${redirectUri}?code=x&state=made-up`, navigate: false })).rejects.toMatchObject({ code: 'mcp_auth_failed' });
  });

  it('mcpLogin opens no window for a URL that is not an http(s) login (a javascript: URL from a hostile server)', async () => {
    const opened: unknown[] = [];
    const open = window.open;
    window.open = (...args: unknown[]) => {
      opened.push(args);
      return null;
    };
    try {
      await expect(mcpLogin({ authorizationUrl: 'javascript:alert(document.cookie)//?state=x' })).rejects.toMatchObject({ code: 'mcp_auth_failed' });
    } finally {
      window.open = open;
    }
    expect(opened).toEqual([]);
  });

  it('tokens stay out of localStorage, events and results: only IndexedDB holds them', async () => {
    const runner = runners.runnerWith([callOf('whoami'), 'done']);
    const server = mcpServer({ url: dcr.mcpUrl, auth: oauth });
    expect(await signIn(await loginAsked(() => runner.mcp(server)), dcr.issuer)).toBe('signed in');
    await runner.mcp(server);
    const run = runner.run('who?');
    const events: RunEvent[] = [];
    for await (const event of run.events) events.push(event);
    const result = await run.result;
    const stored = await new Promise<{ tokens?: { access_token: string; refresh_token?: string } }>((resolve, reject) => {
      const open = indexedDB.open('ambi-web');
      open.onsuccess = () => {
        const get = open.result.transaction('mcpAuth').objectStore('mcpAuth').get(dcr.mcpUrl);
        get.onsuccess = () => {
          open.result.close();
          resolve(get.result);
        };
        get.onerror = () => reject(get.error);
      };
      open.onerror = () => reject(open.error);
    });
    const secrets = [stored.tokens?.access_token, stored.tokens?.refresh_token].filter((t): t is string => typeof t === 'string');
    expect(secrets.length).toBe(2);
    const seenByApp = JSON.stringify({ events, result, local: { ...localStorage }, session: { ...sessionStorage } });
    for (const secret of secrets) expect(seenByApp).not.toContain(secret);
  });
});
