// mcpServer() and the policies it implies, without a server.
import { describe, expect, it } from 'vitest';
import { mcpServer } from '../../src/index.js';
import { effectsOf } from '../../src/mcp/policy.js';
import { fitToolName } from '../../src/mcp/tool-name.js';

describe('mcp config', () => {
  it('a server tool named like an Object.prototype key gets no policy from the prototype', () => {
    const config = mcpServer({ url: 'http://127.0.0.1:1/mcp', policy: { '*': { timeoutMs: 999 } } });
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
      expect(effectsOf(name, undefined, config)).toEqual({
        readOnly: false,
        idempotent: false,
        needsApproval: true,
        timeoutMs: 999,
        maxRetries: 3,
        retryDelayMs: 500,
        // MCP's default for an absent openWorldHint: an open world, whose words are untrusted.
        untrusted: true,
      });
    }
  });

  it('refuses unknown policy fields, naming them', () => {
    expect(() => mcpServer({ url: 'http://127.0.0.1:1/mcp', policy: { echo: { retries: 2 } as never } })).toThrow(
      expect.objectContaining({ code: 'invalid_mcp_config', message: expect.stringContaining('retries') }),
    );
  });

  it('fits a name of astral characters to one "_" per character', () => {
    expect(fitToolName('weather🌦now')).toBe('weather_now');
  });
});
