// Runs in the Chromium launched without --enable-features=WebMCPTesting (vite.config.ts, instance chromium-without-webmcp).
import { describe, expect, it } from 'vitest';
import { defineTool, isAmbiError, listWebMcpTools, offerWebMcpTools, webMcpAvailable } from '../../src/index.js';
import * as pageEntry from '../../src/worker/index.js';

const tool = defineTool({ name: 'find_note', description: 'Find a note', parameters: { type: 'object' }, idempotent: true, readOnly: true, call: () => 1 });

describe('WebMCP in a Chromium without it', () => {
  it('has no document.modelContext, and webMcpAvailable says so', () => {
    expect('modelContext' in document).toBe(false);
    expect(webMcpAvailable()).toBe(false);
    expect(pageEntry.webMcpAvailable()).toBe(false);
  });

  it('rejects offerWebMcpTools with webmcp_unavailable', async () => {
    const error = await offerWebMcpTools([tool]).catch((caught: unknown) => caught);
    expect(isAmbiError(error, 'webmcp_unavailable')).toBe(true);
    expect((error as Error).message).toContain('--enable-features=WebMCPTesting');
  });

  it('rejects listWebMcpTools with webmcp_unavailable', async () => {
    await expect(listWebMcpTools()).rejects.toMatchObject({ code: 'webmcp_unavailable' });
    await expect(pageEntry.listWebMcpTools()).rejects.toMatchObject({ code: 'webmcp_unavailable' });
  });
});
