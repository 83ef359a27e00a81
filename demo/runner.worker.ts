// The demo's own runner worker: ambi-web's built-in engines and extensions, and the hosted models
// a person can use with their own key. Each provider's package loads only when its kind is used.
import { languageModelEngine } from 'ambi-web/ai-sdk';
import { builtInEngines, serveRunner, standardExtensions } from 'ambi-web/worker';
import type { HostedConfig } from './ui/engine-choices.js';

const proxy = (c: HostedConfig) => (c.baseURL ? { baseURL: c.baseURL } : {});

serveRunner({
  engines: {
    ...builtInEngines,
    anthropic: async (c: HostedConfig) => {
      const { createAnthropic } = await import('@ai-sdk/anthropic');
      // Anthropic answers a browser only with this opt-in header.
      return languageModelEngine(createAnthropic({ apiKey: c.apiKey, ...proxy(c), headers: { 'anthropic-dangerous-direct-browser-access': 'true' } })(c.model));
    },
    google: async (c: HostedConfig) => {
      const { createGoogleGenerativeAI } = await import('@ai-sdk/google');
      return languageModelEngine(createGoogleGenerativeAI({ apiKey: c.apiKey, ...proxy(c) })(c.model));
    },
    openai: async (c: HostedConfig) => {
      const { createOpenAI } = await import('@ai-sdk/openai');
      return languageModelEngine(createOpenAI({ apiKey: c.apiKey, ...proxy(c) })(c.model));
    },
  },
  extensions: standardExtensions,
});
