import type { LocalModelConfig } from './local/local-model.js';
import type { OpenAICompatibleConfig } from './openai/openai-compatible.js';
import type { ScriptedEngineConfig } from './scripted/scripted.js';
import type { ReplayEngineConfig } from './cassette/replay.js';
import type { PromptApiConfig } from './prompt-api/prompt-api.js';

/** The configs of the engines every runner has (`builtInEngines`), each with its own type. */
export type BuiltInEngineConfig = OpenAICompatibleConfig | ScriptedEngineConfig | LocalModelConfig | ReplayEngineConfig | PromptApiConfig;

/**
 * The config of an engine kind of an app's own (`serveRunner({ engines })`, `Agent.make(config, { engines })`):
 * plain data, so it can be posted to a worker, named by its `kind`. An interface of your own
 * with a `kind` fits, and so does an object literal with any other fields.
 */
export type CustomEngineConfig = { readonly kind: string } | { readonly kind: string; readonly [field: string]: unknown };

/**
 * Every engine config: plain data, discriminated by `kind`, so it can be posted to a worker. The
 * built-in kinds keep their own types; any other kind is an app's, built by the factory its
 * runner was given for that kind (see `EngineFactories`).
 */
export type EngineConfig = BuiltInEngineConfig | CustomEngineConfig;

/** The kinds `builtInEngines` builds. */
export const BUILT_IN_KINDS: readonly BuiltInEngineConfig['kind'][] = ['openai-compatible', 'scripted', 'local', 'replay', 'prompt-api'];

/** Whether `config` names a built-in kind (and so has that kind's type). */
export function isBuiltInConfig(config: EngineConfig): config is BuiltInEngineConfig {
  return (BUILT_IN_KINDS as readonly string[]).includes(config.kind);
}
