// MCP servers behind a real OAuth 2.1 authorization server (oidc-provider on loopback), in real
// Chromium: the connection lives in the runner worker, the login opens in a popup from the page's
// click, the app's redirect page (fixtures/oauth-callback.html) finishes it.
import { afterEach, describe, expect, inject, it } from 'vitest';
import { commands, userEvent } from 'vitest/browser';
import {
  browserOAuth,
  isAmbiError,
  type McpLoginRequest,
  mcpLogin,
  mcpLogout,
  mcpServer,
  pendingMcpLogin,
  type RunEvent,
} from '../../src/index.js';
import { callOf, runnersClosedAfterEach } from '../support/worker-runners.js';
import '../support/oauth/login-commands.js';

const dcr = inject('oauthDcr');
const cimd = inject('oauthCimd');
const control = inject('oauthControlUrl');
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
  let login: Promise<void> | undefined;
  button.onclick = () => {
    login = mcpLogin(request);
  };
  await userEvent.click(button);
  button.remove();
  const said = await commands.oauthConsent(issuer, action);
  // A refusal leaves the redirect page saying why; otherwise it closed the window.
  expect(said === 'closed' || action === 'deny', said).toBe(true);
  return login?.then(
    () => 'signed in',
    (error: unknown) => error,
  );
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
