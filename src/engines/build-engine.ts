import { EngineError } from '../errors/engine-error.js';
import type { EngineConfig } from './config.js';
import type { LocalModelConfig, LocalModelProgress } from './local/local-model.js';
import { createOpenAICompatibleEngine } from './openai/engine.js';
import { deferredStream } from './deferred-stream.js';
import { realmFetch } from './realm-fetch.js';
import type { ScriptedEngineConfig } from './scripted/scripted.js';
import type { ReplayEngineConfig } from './cassette/replay.js';
import type { Engine } from './types.js';

/** What an engine may borrow from its realm (tests and odd runtimes swap `fetch`). */
export interface EngineDeps {
  fetch?: typeof fetch;
  /** Download and load progress of a model that runs in this realm (`localModel`). */
  onProgress?: (progress: LocalModelProgress) => void;
}

/**
 * The live Engine of every config kind but `local` (see createEngine): what a runner builds
 * without the local model's config code, which `Agent.make` loads only for a local model.
 */
export function buildEngine(config: Exclude<EngineConfig, LocalModelConfig>, deps: EngineDeps = {}): Engine {
  switch (config.kind) {
    case 'openai-compatible':
      return createOpenAICompatibleEngine(config, deps.fetch ?? realmFetch);
    case 'scripted':
      return lazyScriptedEngine(config);
    case 'replay':
      return lazyReplayEngine(config);
    default:
      throw new EngineError('invalid_engine_config', `Unknown engine kind: ${String((config as { kind?: unknown }).kind)}`);
  }
}

/** The scripted engine, its code loaded on first use: tests and offline demos need it, an app on a real model does not. */
function lazyScriptedEngine(config: ScriptedEngineConfig): Engine {
  let loading: Promise<Engine> | undefined;
  const engine = () => (loading ??= import('./scripted/engine.js').then(({ createScriptedEngine }) => createScriptedEngine(config)));
  return {
    nativeTools: true,
    stream: (request) => deferredStream(async () => (await engine()).stream(request)),
  };
}

/** The replay engine, its code (and the cassette's check) loaded on first use: only tests and replays need it. */
function lazyReplayEngine(config: ReplayEngineConfig): Engine {
  let loading: Promise<Engine> | undefined;
  const engine = () => (loading ??= import('./cassette/replay-engine.js').then(({ createReplayEngine }) => createReplayEngine(config)));
  return {
    // Read without trusting the cassette: the whole check runs with the engine's code.
    nativeTools: config.cassette?.engine?.nativeTools === true,
    stream: (request) => deferredStream(async () => (await engine()).stream(request)),
  };
}
