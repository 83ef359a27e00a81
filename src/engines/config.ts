import type { LocalModelConfig } from './local/local-model.js';
import type { OpenAICompatibleConfig } from './openai/openai-compatible.js';
import type { ScriptedEngineConfig } from './scripted/scripted.js';
import type { ReplayEngineConfig } from './cassette/replay.js';

/**
 * Every engine config: plain data, discriminated by `kind`, so it can be posted to a worker.
 * A new kind joins this union and `createEngine`'s switch.
 */
export type EngineConfig = OpenAICompatibleConfig | ScriptedEngineConfig | LocalModelConfig | ReplayEngineConfig;
