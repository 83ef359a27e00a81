import { deferredStream } from '../deferred-stream.js';
import type { LocalEngine } from './engine.js';
import { localModel, type LocalModelConfig, type LocalModelDeps } from './local-model.js';

/**
 * The Engine of a `localModel` config, as `createEngine` builds it: the config is checked
 * now, and the local engine's code (llama.cpp glue, GGUF reader, grammar) is loaded with
 * `import()` as it is built, so a runner on another engine never downloads it; the model (wllama
 * and the weights) loads on first use.
 */
export function lazyLocalEngine(given: LocalModelConfig, deps: LocalModelDeps = {}): LocalEngine {
  const config = localModel(given);
  let loaded: LocalEngine | undefined;
  let loading: Promise<LocalEngine> | undefined;
  // The engine's code loads as the engine is built (the entry decides); the model itself, on first use.
  const code = import('./engine.js');
  code.catch(() => {});
  const engine = () => (loading ??= code.then(({ createLocalEngine }) => (loaded = createLocalEngine(config, deps))));
  return {
    nativeTools: false,
    get model() {
      return loaded?.model;
    },
    load: async (options) => (await engine()).load(options),
    // Nothing to free before the engine's code was loaded (or if it could not be).
    unload: async () => {
      await (await loading?.catch(() => undefined))?.unload();
    },
    stream: (request) => deferredStream(async () => (await engine()).stream(request)),
    countTokens: async (text, signal) => (await engine()).countTokens(text, signal),
    contextBudget: async (signal) => (await engine()).contextBudget(signal),
  };
}
