// browserOAuth and mcpServer({ auth }): checked where they are written, plain data that crosses to the runner worker.
import { describe, expect, it } from 'vitest';
import { browserOAuth, mcpServer } from '../../src/index.js';

const redirectUri = 'https://app.example.com/oauth/callback';

describe('browserOAuth', () => {
  it('is plain data, which survives structured cloning as it is', () => {
    const auth = browserOAuth({ redirectUri, clientMetadataUrl: 'https://app.example.com/oauth/client.json', scope: 'tools:read' });
    expect(structuredClone(auth)).toEqual({
      type: 'browser-oauth',
      redirectUri,
      clientMetadataUrl: 'https://app.example.com/oauth/client.json',
      scope: 'tools:read',
    });
  });

  for (const [what, options, field] of [
    ['a relative redirect URI', { redirectUri: '/oauth/callback' }, 'redirectUri'],
    ['a javascript: redirect URI', { redirectUri: 'javascript:alert(1)' }, 'redirectUri'],
    ['a redirect URI with a fragment', { redirectUri: `${redirectUri}#x` }, 'redirectUri'],
    ['a metadata document over http', { redirectUri, clientMetadataUrl: 'http://app.example.com/client.json' }, 'clientMetadataUrl'],
    ['a metadata document at the root', { redirectUri, clientMetadataUrl: 'https://app.example.com/' }, 'clientMetadataUrl'],
    ['an empty scope', { redirectUri, scope: ' ' }, 'scope'],
    ['an unknown field', { redirectUri, clientSecret: 'x' }, 'unknown field'],
    ['__proto__ as a field', JSON.parse(`{"redirectUri":"${redirectUri}","__proto__":{"scope":"admin"}}`), 'unknown field'],
  ] as const) {
    it(`refuses ${what} with invalid_mcp_config naming ${field}`, () => {
      expect(() => browserOAuth(options as never)).toThrow(expect.objectContaining({ code: 'invalid_mcp_config', message: expect.stringContaining(field) }));
    });
  }
});

describe('mcpServer({ auth })', () => {
  it('keeps the login config, checked', () => {
    expect(mcpServer({ url: 'https://mcp.example.com/mcp', auth: browserOAuth({ redirectUri }) }).auth).toEqual({ type: 'browser-oauth', redirectUri });
  });

  it('refuses an auth not made by browserOAuth, and an Authorization header beside it', () => {
    expect(() => mcpServer({ url: 'https://mcp.example.com/mcp', auth: { redirectUri } as never })).toThrow(
      expect.objectContaining({ code: 'invalid_mcp_config' }),
    );
    expect(() => mcpServer({ url: 'https://mcp.example.com/mcp', auth: browserOAuth({ redirectUri }), headers: { authorization: 'Bearer x' } })).toThrow(
      expect.objectContaining({ code: 'invalid_mcp_config', message: expect.stringContaining('Authorization') }),
    );
  });
});
