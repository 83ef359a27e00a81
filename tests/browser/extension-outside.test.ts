// Tab tools outside an extension (this is a web page in Chromium): both sides refuse with a
// coded error, before anything is registered, and validation here still tries ajv's compiler.
import { describe, expect, it } from 'vitest';
import { createWorkerRunner, defineTool, exposeTabTools, isAmbiError, scriptedEngine } from '../../src/index.js';
import { inExtensionRealm } from '../../src/validation/extension-realm.js';

const title = defineTool({
  name: 'title',
  description: 'The title',
  parameters: { type: 'object', properties: {} },
  readOnly: true,
  call: () => document.title,
});

describe('tab tools outside an extension', () => {
  it('exposeTabTools throws extension_unavailable on a web page', () => {
    let thrown: unknown;
    try {
      exposeTabTools([title]);
    } catch (error) {
      thrown = error;
    }
    expect(isAmbiError(thrown, 'extension_unavailable')).toBe(true);
  });

  it('runner.tabTools rejects with extension_unavailable and registers nothing', async () => {
    const runner = createWorkerRunner({ engine: scriptedEngine([{ toolCalls: [{ name: 'title', arguments: {} }] }, 'done']) });
    try {
      await expect(runner.tabTools(1)).rejects.toMatchObject({ code: 'extension_unavailable' });
      // The name is still free: the page's own tool registers under it.
      runner.tool(title);
      const result = await runner.run('go').result;
      expect(result.toolResults[0]).toMatchObject({ ok: true, output: document.title });
    } finally {
      runner.close();
    }
  });

  it('refuses a tab id, frame id or option that cannot be one, before anything crosses', async () => {
    const runner = createWorkerRunner({ engine: scriptedEngine([]) });
    try {
      await expect(runner.tabTools(-1)).rejects.toMatchObject({ code: 'invalid_option' });
      await expect(runner.tabTools(1.5)).rejects.toMatchObject({ code: 'invalid_option' });
      await expect(runner.tabTools(1, { frameId: -2 })).rejects.toMatchObject({ code: 'invalid_option' });
      await expect(runner.tabTools(1, { prefix: '__proto__ x' })).rejects.toMatchObject({ code: 'invalid_option' });
      await expect(runner.tabTools(1, { acceptDefinitions: 'yes' as unknown as boolean })).rejects.toMatchObject({
        code: 'invalid_option',
        message: expect.stringContaining('acceptDefinitions'),
      });
    } finally {
      runner.close();
    }
  });

  it('a web page is no extension realm: auto validation may use eval here', () => {
    expect(location.protocol).toBe('http:');
    expect(inExtensionRealm()).toBe(false);
  });
});
