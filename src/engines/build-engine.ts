import { BUILT_IN_KINDS, type EngineConfig } from './config.js';
import { unknownEngine } from './unknown-engine.js';
import type { LocalModelConfig, LocalModelProgress } from './local/local-model.js';
import { createOpenAICompatibleEngine } from './openai/engine.js';
import { deferredStream } from './deferred-stream.js';
import { realmFetch } from './realm-fetch.js';
import type { ScriptedEngineConfig } from './scripted/scripted.js';
import type { ReplayEngineConfig } from './cassette/replay.js';
import type { PromptApiConfig } from './prompt-api/prompt-api.js';
import type { PromptApiAccess } from './prompt-api/access.js';
import type { Engine } from './types.js';

/** What an engine may borrow from its realm (tests and odd runtimes swap `fetch`). */
export interface EngineDeps {
  fetch?: typeof fetch;
  /** Download and load progress of a model that runs in this realm (`localModel`). */
  onProgress?: (progress: LocalModelProgress) => void;
  /**
   * The browser's built-in model (`promptApiEngine`): default, this realm's `LanguageModel`. A runner
   * worker passes the page's, where the browser offers `LanguageModel` to documents only.
   * @internal
   */
  promptApi?: PromptApiAccess;
}

/**
 * The live Engine of every built-in config kind but `local` (see `builtInEngines`): what a runner
 * builds without the local model's config code, which loads only for a local model. A kind that
 * is not built in fails `unknown_engine`.
 */
export function buildEngine(config: Exclude<EngineConfig, LocalModelConfig>, deps: EngineDeps = {}): Engine {
  switch (config.kind) {
    case 'openai-compatible':
      return createOpenAICompatibleEngine(config as Extract<EngineConfig, { kind: 'openai-compatible' }>, deps.fetch ?? realmFetch);
    case 'scripted':
      return lazyScriptedEngine(config as ScriptedEngineConfig);
    case 'replay':
      return lazyReplayEngine(config as ReplayEngineConfig);
    case 'prompt-api':
      return lazyPromptApiEngine(config as PromptApiConfig, deps.promptApi);
    default:
      throw unknownEngine(config, BUILT_IN_KINDS);
  }
}

/** The scripted engine, its code loaded as it is built (tests and offline demos need it, an app on a real model does not), made on first use. */
function lazyScriptedEngine(config: ScriptedEngineConfig): Engine {
  const code = preloaded(import('./scripted/engine.js'));
  let loading: Promise<Engine> | undefined;
  const engine = () => (loading ??= code.then(({ createScriptedEngine }) => createScriptedEngine(config)));
  return {
    nativeTools: true,
    accepts: config.accepts ?? { image: true, file: true },
    stream: (request) => deferredStream(async () => (await engine()).stream(request)),
  };
}

/** The replay engine, its code (and the cassette's check) loaded as it is built, made (the cassette checked) on first use: only tests and replays need it. */
function lazyReplayEngine(config: ReplayEngineConfig): Engine {
  const code = preloaded(import('./cassette/replay-engine.js'));
  let loading: Promise<Engine> | undefined;
  const engine = () => (loading ??= code.then(({ createReplayEngine }) => createReplayEngine(config)));
  return {
    // Read without trusting the cassette: the whole check runs with the engine's code.
    nativeTools: config.cassette?.engine?.nativeTools === true,
    // A replay compares parts by hash: it takes whatever was recorded.
    accepts: { image: true, file: true },
    stream: (request) => deferredStream(async () => (await engine()).stream(request)),
  };
}

/** The browser's built-in model, its code loaded as it is built, made on first use; `access` defaults to this realm's `LanguageModel` then. */
function lazyPromptApiEngine(config: PromptApiConfig, access: PromptApiAccess | undefined): Engine {
  const code = preloaded(Promise.all([import('./prompt-api/engine.js'), import('./prompt-api/prompt-api.js'), import('./prompt-api/direct.js')]));
  let loading: Promise<Engine> | undefined;
  const engine = () =>
    (loading ??= code.then(([{ createPromptApiEngine }, { promptApiEngine }, { directPromptApi, realmLanguageModel }]) => {
      const model = realmLanguageModel();
      // Checked again here: a config made by hand, or one that crossed from the page.
      return createPromptApiEngine(promptApiEngine(config), access ?? (model ? directPromptApi(model) : undefined));
    }));
  return {
    nativeTools: true,
    info: { provider: 'chrome.prompt_api' },
    accepts: { image: true },
    stream: (request) => deferredStream(async () => (await engine()).stream(request)),
  };
}

/**
 * An engine's code, loaded from the moment the engine is built: the entry that builds it (Agent.make,
 * the runner worker's configure) decides, and a run's first turn waits for nothing more. A module
 * that fails to load fails the first request that needs it, as before (never an unhandled rejection).
 */
function preloaded<T>(loading: Promise<T>): Promise<T> {
  loading.catch(() => {});
  return loading;
}
