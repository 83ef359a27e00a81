import { type EngineConfig, isBuiltInConfig } from './config.js';
import type { EngineInfo } from './types.js';

export type { EngineInfo };

/** What traces say of an engine built from `config`: a built-in config's own account, else what the engine says of itself. */
export function builtEngineInfo(config: EngineConfig, live: { info?: EngineInfo }): EngineInfo {
  const info = engineInfo(config);
  return info.provider === '_OTHER' && live.info ? live.info : info;
}

/** What a plain-data engine config says of its engine. */
export function engineInfo(config: EngineConfig): EngineInfo {
  // An app's own kind: the semantic conventions' `_OTHER`, with the model where its config names one.
  if (!isBuiltInConfig(config)) {
    const { model } = config as { model?: unknown };
    return typeof model === 'string' ? { provider: '_OTHER', model } : { provider: '_OTHER' };
  }
  switch (config.kind) {
    case 'openai-compatible': {
      // OpenAI's API shape, whoever serves it (the conventions name the client's protocol).
      const info: EngineInfo = { provider: 'openai', model: config.model };
      const server = serverOf(config.baseURL);
      if (server) info.server = server;
      return info;
    }
    case 'local':
      return { provider: 'llama.cpp', model: typeof config.source === 'string' ? (config.source.split(/[?#]/)[0]!.split('/').pop() ?? 'local') : 'local' };
    case 'scripted':
      return { provider: 'ambi-web.scripted' };
    case 'replay': {
      const engine = config.cassette?.engine;
      const info: EngineInfo = { provider: typeof engine?.provider === 'string' ? engine.provider : 'ambi-web.replay' };
      if (typeof engine?.model === 'string') info.model = engine.model;
      return info;
    }
    case 'prompt-api':
      return { provider: 'chrome.prompt_api' };
  }
}

function serverOf(baseURL: string): EngineInfo['server'] | undefined {
  try {
    const url = new URL(baseURL, globalThis.location?.href);
    return url.port ? { address: url.hostname, port: Number(url.port) } : { address: url.hostname };
  } catch {
    return undefined;
  }
}
