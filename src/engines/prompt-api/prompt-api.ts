import { EngineError } from '../../errors/engine-error.js';

/** What `promptApiEngine` accepts. Plain data: the config crosses to the runner worker. */
export interface PromptApiOptions {
  /**
   * The languages the person writes in and the model answers in (BCP 47 tags), as the Prompt API's
   * `expectedInputs` / `expectedOutputs` name them. Default `['en']`.
   */
  languages?: string[];
  /** Sampling temperature (the Prompt API takes it only in extensions and experimental contexts). */
  temperature?: number;
  /** Top-K sampling (the Prompt API takes it only in extensions and experimental contexts; with `temperature`). */
  topK?: number;
  /** The most calls one reply may make (the `maxItems` of the calls in the response constraint). Default 8. */
  maxCallsPerReply?: number;
}

/** A plain-data description of the browser's built-in model (Chrome's Prompt API, `LanguageModel`). */
export interface PromptApiConfig extends Omit<PromptApiOptions, 'languages' | 'maxCallsPerReply'> {
  kind: 'prompt-api';
  languages: string[];
  maxCallsPerReply: number;
}

/**
 * Describe the browser's built-in model (Chrome's Prompt API, `LanguageModel`) as an engine. Tool
 * calls and typed answers come back through `responseConstraint` (a JSON Schema of the call
 * shapes), so every call is the runner's to run under its policy; the browser's own tool loop is
 * never used. Where the model is unavailable a request fails with `engine_unavailable`; while it
 * downloads, the run reports `model_download` events. In a `WorkerRunner`, where the browser offers
 * `LanguageModel` to documents only, its requests run on the page.
 *
 * @example
 * ```ts
 * import { createWorkerRunner, promptApiEngine } from 'ambi-web/worker';
 *
 * const runner = createWorkerRunner({ engine: promptApiEngine({ languages: ['en'] }) });
 * const run = runner.run('Say hello in French.');
 * for await (const event of run.events) if (event.type === 'model_download') console.log(`model: ${Math.round(100 * event.loaded)}%`);
 * console.log((await run.result).text);
 * ```
 */
export function promptApiEngine(options: PromptApiOptions = {}): PromptApiConfig {
  const languages = options.languages ?? ['en'];
  if (!Array.isArray(languages) || languages.length === 0 || !languages.every((tag) => typeof tag === 'string' && tag.trim() !== '')) {
    invalid('`languages` must be a non-empty list of BCP 47 tags, e.g. ["en"]');
  }
  if (options.temperature !== undefined && !(Number.isFinite(options.temperature) && options.temperature >= 0)) invalid('`temperature` must be a number >= 0');
  if (options.topK !== undefined && !(Number.isInteger(options.topK) && options.topK >= 1)) invalid('`topK` must be a whole number >= 1');
  const maxCallsPerReply = options.maxCallsPerReply ?? 8;
  if (!(Number.isInteger(maxCallsPerReply) && maxCallsPerReply >= 1)) invalid('`maxCallsPerReply` must be a whole number >= 1');
  const config: PromptApiConfig = { kind: 'prompt-api', languages: [...languages], maxCallsPerReply };
  if (options.temperature !== undefined) config.temperature = options.temperature;
  if (options.topK !== undefined) config.topK = options.topK;
  return config;
}

function invalid(message: string): never {
  throw new EngineError('invalid_engine_config', `promptApiEngine: ${message}`);
}
