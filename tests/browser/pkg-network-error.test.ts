// Issue 15: in a browser, "Failed to fetch" is all fetch says for a server that is down and for a CORS refusal: the error names both, with this page's origin.
import { describe, expect, it } from 'vitest';
import { openAICompatible } from '../../src/index.js';
import { createEngine } from '../../src/extend/index.js';

async function failure(baseURL: string): Promise<{ code: string; message: string }> {
  const engine = createEngine(openAICompatible({ baseURL, model: 'm' }));
  try {
    for await (const _event of engine.stream({ messages: [{ role: 'user', content: 'hi' }], tools: [] })) {
      // A server that answers is not what this test is about.
    }
  } catch (error) {
    return error as { code: string; message: string };
  }
  throw new Error('the request did not fail');
}

describe('OpenAI-compatible engine in a page: network_error', () => {
  it("names the server being down, a wrong URL, and CORS for this page's origin, with the Ollama setting", async () => {
    const error = await failure('http://127.0.0.1:9/v1');
    expect(error.code).toBe('network_error');
    expect(error.message).toContain('Failed to fetch');
    expect(error.message).toContain(`CORS requests from this page's origin (${location.origin})`);
    expect(error.message).toContain(`OLLAMA_ORIGINS=${location.origin}`);
  });
});
