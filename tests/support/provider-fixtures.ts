// The streams the AI SDK's maintainers recorded from Anthropic, Google and OpenAI (vercel/ai,
// packages/<provider>/src/__fixtures__, Apache-2.0: see THIRD_PARTY_LICENSES.md), as each
// provider's server sends them: one JSON object per SSE `data:` event. Each provider's run is a
// list of turns (a reply with tool calls, then the answer), and its 401 is its own error body.
import { readFileSync } from 'node:fs';

export type ProviderName = 'anthropic' | 'google' | 'openai';

const fixture = (name: string): string[] =>
  readFileSync(new URL(`../fixtures/ai-sdk/${name}.chunks.txt`, import.meta.url), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '');

/** A multi-response recording cut at each `response.created`: one turn each. */
function turnsOf(lines: string[]): string[][] {
  const turns: string[][] = [];
  for (const line of lines) {
    if (line.includes('"type":"response.created"') || turns.length === 0) turns.push([]);
    turns.at(-1)!.push(line);
  }
  return turns;
}

export interface ProviderFixture {
  /** The recorded replies of one run, in order: tool calls first, the answer last. */
  turns: string[][];
  /** The provider's 401, as its server answers a bad key. */
  unauthorized: { status: number; body: string };
}

export const providerFixtures: Record<ProviderName, ProviderFixture> = {
  anthropic: {
    turns: [fixture('anthropic-tool-no-args'), fixture('anthropic-text')],
    unauthorized: { status: 401, body: JSON.stringify({ type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } }) },
  },
  google: {
    turns: [fixture('google-tool-call'), fixture('google-text')],
    unauthorized: {
      status: 401,
      body: JSON.stringify({ error: { code: 401, message: 'Request had invalid authentication credentials.', status: 'UNAUTHENTICATED' } }),
    },
  },
  openai: {
    turns: turnsOf(fixture('openai-reasoning-encrypted-content.1')),
    unauthorized: {
      status: 401,
      // OpenAI quotes the key it refused, partly masked: ambi-web's error must not carry it.
      body: JSON.stringify({
        error: {
          message: 'Incorrect API key provided: sk-proj-abcdefghijklmnop1234. You can find your API key at https://platform.openai.com/account/api-keys.',
          type: 'invalid_request_error',
          param: null,
          code: 'invalid_api_key',
        },
      }),
    },
  },
};

/** Other recordings the tests replay on their own. */
export const extraFixtures = {
  /** Anthropic runs its own code-execution tool, then answers; its usage reads and writes the prompt cache. */
  anthropicProviderToolWithCache: fixture('anthropic-code-execution-20260120-prompt-cache.1'),
  /** Anthropic calls a tool named `json` with arguments. */
  anthropicToolWithArguments: fixture('anthropic-json-tool.1'),
  /** OpenAI's stream reports an error (insufficient quota) after it started. */
  openaiErrorMidStream: fixture('openai-error.1'),
};

/** One recorded line as the provider's server sends it (OpenAI's Responses API names each event). */
export function sseEvent(provider: ProviderName, line: string): string {
  if (provider === 'openai') {
    const type = (JSON.parse(line) as { type?: string }).type;
    return `event: ${type}\ndata: ${line}\n\n`;
  }
  if (provider === 'anthropic') {
    const type = (JSON.parse(line) as { type?: string }).type;
    return `event: ${type}\ndata: ${line}\n\n`;
  }
  return `data: ${line}\n\n`;
}

/** The provider a request path is for (`…/anthropic/messages`, `…/google/models/x:streamGenerateContent`, `…/openai/responses`). */
export function providerOf(path: string): ProviderName | undefined {
  if (/\/anthropic\/messages$/.test(path)) return 'anthropic';
  if (/\/google\/models\/[^/]+:streamGenerateContent$/.test(path)) return 'google';
  if (/\/openai\/responses$/.test(path)) return 'openai';
  return undefined;
}
