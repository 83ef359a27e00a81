import { EngineError } from '../../errors/engine-error.js';
import type { TemplateSource } from './template.js';

/** What `localModel` accepts. Plain data only (a Blob or File clones), so it can cross to a Web Worker. */
export interface LocalModelOptions {
  /** The GGUF model: a URL (downloaded once, then served from Cache Storage) or a Blob/File the person picked. */
  source: string | Blob;
  /** Tokens of context (llama.cpp's `n_ctx`). Default: the model's trained context, at most 4096. */
  contextSize?: number;
  /** CPU threads. More than 1 needs a cross-origin-isolated page (COOP/COEP). Default: wllama's choice. */
  threads?: number;
  /**
   * A Jinja chat template that replaces the model's own (`tokenizer.chat_template`); `'chatml'` names
   * the built-in ChatML one. Default: the model's template, or ChatML if the model has none.
   */
  template?: string;
  /** Longest reply, in tokens. Default: no limit but the context. */
  maxTokens?: number;
  /** Sampling temperature; 0 is greedy. Default: llama.cpp's (0.8). */
  temperature?: number;
  /** Seed of each request's sampler, for repeatable output. Default: random. */
  seed?: number;
  /** Where wllama's `.wasm` is served. Default: the file Vite emits from `@wllama/wllama`. */
  wasmUrl?: string;
  /** Keep a downloaded model in Cache Storage, so the next start needs no network. Default true. */
  cache?: boolean;
}

/** A plain-data description of a GGUF model run in the browser with llama.cpp (wllama). */
export interface LocalModelConfig extends Omit<LocalModelOptions, 'cache'> {
  kind: 'local';
  cache: boolean;
}

/** How far a model load has come: download (URL sources not yet cached), then load, then ready. */
export type LocalModelProgress =
  | { phase: 'download'; loaded: number; total: number | undefined }
  | { phase: 'load'; bytes: number; from: 'blob' | 'cache' | 'network' }
  | { phase: 'ready'; loadMs: number };

/** What a loaded local model reports about itself. */
export interface LocalModelInfo {
  /** Size of the GGUF file. */
  bytes: number;
  /** Where the bytes came from: the given Blob, Cache Storage, or a download. */
  from: 'blob' | 'cache' | 'network';
  contextSize: number;
  /** Whose chat template is in use: the `template` option, the model file's, or the ChatML default. */
  template: TemplateSource;
  /** From the start of the load (download included) to ready. */
  loadMs: number;
}

/** Realm services for a local model: `fetch` (tests count it) and progress for the page. */
export interface LocalModelDeps {
  fetch?: typeof fetch;
  onProgress?: (progress: LocalModelProgress) => void;
}

/**
 * Describe a GGUF model run in the browser (llama.cpp in WebAssembly); tool calls are grammar-constrained.
 *
 * @example
 * ```ts
 * import { createWorkerRunner, localModel } from 'ambi-web/worker';
 *
 * const picked = document.querySelector<HTMLInputElement>('input[type=file]')?.files?.[0];
 * const engine = localModel({
 *   source: picked ?? '/models/qwen2.5-0.5b-instruct-q4_k_m.gguf', // a File, or a URL (downloaded once, then cached)
 *   contextSize: 2048,
 *   maxTokens: 256,
 * });
 * const runner = createWorkerRunner({ engine });
 * console.log((await runner.run('Say hi in French').result).text);
 * ```
 */
export function localModel(options: LocalModelOptions): LocalModelConfig {
  const { source } = options;
  const isBlob = typeof Blob !== 'undefined' && source instanceof Blob;
  if (!isBlob && (typeof source !== 'string' || source.trim() === '')) {
    invalid('`source` must be a URL or a Blob/File of a GGUF model');
  }
  wholeAtLeast(options.contextSize, 'contextSize', 16);
  wholeAtLeast(options.threads, 'threads', 1);
  wholeAtLeast(options.maxTokens, 'maxTokens', 1);
  wholeAtLeast(options.seed, 'seed', 0);
  if (options.temperature !== undefined && !(Number.isFinite(options.temperature) && options.temperature >= 0)) {
    invalid('`temperature` must be a number >= 0');
  }
  if ('toolTags' in options) {
    invalid("`toolTags` is gone: the grammar now uses the agent parser's tags (`Agent.make(engine, { parser: new TagToolCallParser({ open, close }) })`)");
  }
  if (options.template !== undefined && (typeof options.template !== 'string' || options.template.trim() === '')) {
    invalid('`template` must be a non-empty Jinja template (or "chatml")');
  }
  return { ...options, kind: 'local', cache: options.cache ?? true };
}

function wholeAtLeast(value: number | undefined, name: string, min: number): void {
  if (value !== undefined && !(Number.isInteger(value) && value >= min)) invalid(`\`${name}\` must be a whole number >= ${min}`);
}

function invalid(message: string): never {
  throw new EngineError('invalid_engine_config', `localModel: ${message}`);
}
