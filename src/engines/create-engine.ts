import { buildEngine, type EngineDeps } from './build-engine.js';
import type { EngineConfig } from './config.js';
import { lazyLocalEngine } from './local/lazy-engine.js';
import type { LocalModelConfig } from './local/local-model.js';
import type { Engine } from './types.js';

export type { EngineDeps } from './build-engine.js';

/**
 * Build the live Engine for a built-in plain-data config, in the realm that runs the loop. An app's
 * own kinds are built by their factories (`Agent.make(config, { engines })`, `serveRunner({ engines })`);
 * here they fail `unknown_engine`.
 */
export function createEngine(config: EngineConfig, deps: EngineDeps = {}): Engine {
  // Its code loads on first use: an app that never runs a local model never downloads it.
  if (config.kind === 'local') return lazyLocalEngine(config as LocalModelConfig, deps);
  return buildEngine(config as Exclude<EngineConfig, LocalModelConfig>, deps);
}
