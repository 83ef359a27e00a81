// Engines as a table from kind to factory, in the realm that runs the loop: the built-in kinds,
// and those an app adds (`serveRunner({ engines })`, `Agent.make(config, { engines })`).
import { isAmbiError } from '../errors/ambi-error.js';
import { EngineError } from '../errors/engine-error.js';
import { errorMessage } from '../errors/error-message.js';
import { buildEngine, type EngineDeps } from './build-engine.js';
import { unknownEngine } from './unknown-engine.js';
import type { BuiltInEngineConfig, EngineConfig } from './config.js';
import type { LocalModelConfig } from './local/local-model.js';
import type { Engine } from './types.js';

/**
 * Builds the live Engine of one kind from its plain-data config, in the realm that runs the loop
 * (the runner worker, for a `WorkerRunner`). `deps` are the realm's services (`fetch`, the page's
 * `LanguageModel` for a worker). It may be async: load the provider's code there, with `import()`.
 */
export type EngineFactory<C = EngineConfig> = (config: C, deps: EngineDeps) => Engine | Promise<Engine>;

/**
 * Engine kinds by name (`config.kind`). A factory's config is what the page wrote (`{ kind, … }`),
 * typed loosely here: annotate it in your factory (`(config: MyConfig) => …`).
 */
// biome-ignore lint/suspicious/noExplicitAny: each factory takes its own kind's config; `unknown` would refuse every annotated one
export type EngineFactories = { readonly [kind: string]: EngineFactory<any> };

/** The engines every runner has: `openai-compatible`, `scripted`, `replay`, `local`, `prompt-api`. Each loads its code on first use. */
export const builtInEngines: { readonly [K in BuiltInEngineConfig['kind']]: EngineFactory<Extract<BuiltInEngineConfig, { kind: K }>> } = {
  'openai-compatible': buildEngine,
  scripted: buildEngine,
  replay: buildEngine,
  'prompt-api': buildEngine,
  // A local model's config code (and its lazy engine) loads only for a local model.
  local: async (config: LocalModelConfig, deps: EngineDeps) => (await import('./local/lazy-engine.js')).lazyLocalEngine(config, deps),
};

/** The built-in kinds, then `added` over them (an app may replace a built-in kind by naming it). */
export function engineTable(added: EngineFactories | undefined): EngineFactories {
  if (added === undefined) return builtInEngines;
  if (typeof added !== 'object' || added === null) throw new EngineError('invalid_engine_config', '`engines` must be an object of engine factories by kind');
  for (const [kind, factory] of Object.entries(added)) {
    if (typeof factory !== 'function') throw new EngineError('invalid_engine_config', `The engine factory for kind "${kind}" is not a function`);
  }
  return { ...builtInEngines, ...added };
}

/**
 * The live Engine of `config`, built by its kind's factory in `table`. A kind the table does not
 * have (own entries only: `__proto__` or `toString` name nothing) fails `unknown_engine`, naming
 * the kinds it has; a factory that throws or gives something that is no Engine, `invalid_engine_config`.
 */
export async function engineFromTable(config: EngineConfig, table: EngineFactories, deps: EngineDeps = {}): Promise<Engine> {
  const kind = typeof config === 'object' && config !== null ? (config as { kind?: unknown }).kind : undefined;
  if (typeof kind !== 'string' || !Object.hasOwn(table, kind)) throw unknownEngine(config, Object.keys(table));
  let engine: unknown;
  try {
    engine = await table[kind]!(config, deps);
  } catch (error) {
    if (isAmbiError(error)) throw error;
    throw new EngineError('invalid_engine_config', `The "${kind}" engine could not be built: ${errorMessage(error)}`, { cause: error });
  }
  if (!isEngine(engine))
    throw new EngineError('invalid_engine_config', `The "${kind}" engine factory gave no Engine (an object with \`stream\` and \`nativeTools\`)`);
  return engine;
}

/** Whether `value` is a live Engine rather than a config (configs are plain data: no `stream` function). */
export function isEngine(value: unknown): value is Engine {
  return typeof value === 'object' && value !== null && typeof (value as Engine).stream === 'function' && typeof (value as Engine).nativeTools === 'boolean';
}
