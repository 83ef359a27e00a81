import type { Wllama } from '@wllama/wllama';
import { LocalModelError } from '../../errors/local-model-error.js';
import { abortedError } from '../abort.js';
import { errorMessage } from '../../errors/error-message.js';
import type { GgufInfo } from './gguf.js';
import type { LocalModelConfig } from './local-model.js';
import { chooseTemplate, type TemplateSource } from './template.js';

/** A model loaded into llama.cpp, and what the engine knows of it. */
export interface LoadedModel {
  wllama: Wllama;
  contextSize: number;
  template: TemplateSource;
  /** The last lines llama.cpp logged, for error messages. */
  log: string[];
}

const DEFAULT_MAX_CONTEXT = 4096;
const LOG_LINES = 30;

/** wllama's code and the URL of its wasm, once imported. */
export interface LocalRuntime {
  Wllama: typeof Wllama;
  wasmUrl: string;
}

/**
 * wllama and its wasm, imported on first use only: an app that never runs a local model never
 * downloads the 10 MB wasm, and its main bundle does not carry wllama's code. The loader calls
 * this before it downloads a model, so a missing runtime fails at once, not after gigabytes.
 */
export async function importRuntime(wasmUrl: string | undefined): Promise<LocalRuntime> {
  try {
    const [module, wasm] = await Promise.all([
      import('@wllama/wllama'),
      wasmUrl !== undefined ? { default: wasmUrl } : import('@wllama/wllama/esm/wasm/wllama.wasm?url'),
    ]);
    return { Wllama: module.Wllama, wasmUrl: wasm.default };
  } catch (cause) {
    const reason = errorMessage(cause);
    throw new LocalModelError(
      'runtime_unavailable',
      `Could not load the local model runtime (@wllama/wllama, a dependency of ambi-web) before downloading the model: ${reason}. Check that @wllama/wllama is installed, that the runner worker is built by your bundler (see the README's Install section), or give \`wasmUrl\` if your bundler cannot serve wllama.wasm`,
      { cause },
    );
  }
}

/** Load checked GGUF bytes into a fresh llama.cpp instance; aborting the signal stops and frees it. */
export async function loadModel(runtime: LocalRuntime, blob: Blob, info: GgufInfo, config: LocalModelConfig, signal?: AbortSignal): Promise<LoadedModel> {
  if (signal?.aborted) throw abortedError(signal);
  const log: string[] = [];
  const keep =
    (level: string) =>
    (...parts: unknown[]) => {
      log.push(`${level} ${parts.map(String).join(' ')}`);
      if (log.length > LOG_LINES) log.shift();
    };
  const wllama = new runtime.Wllama({ default: runtime.wasmUrl }, { logger: { debug: () => {}, log: keep('info'), warn: keep('warn'), error: keep('error') } });
  const trained = Number(info.metadata.get(`${String(info.metadata.get('general.architecture'))}.context_length`));
  const contextSize = config.contextSize ?? (Number.isFinite(trained) && trained > 0 ? Math.min(trained, DEFAULT_MAX_CONTEXT) : DEFAULT_MAX_CONTEXT);
  const { template, source } = chooseTemplate(config.template, info);

  const loading = wllama.loadModel([blob], {
    n_ctx: contextSize,
    n_gpu_layers: 0, // CPU: the path proven here; WebGPU is absent in headless Chromium
    jinja: true,
    ...(config.threads !== undefined ? { n_threads: config.threads } : {}),
    ...(template !== undefined ? { chat_template: template } : {}),
  });
  const onAbort = () => void wllama.exit().catch(() => {});
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    await loading;
  } catch (error) {
    void wllama.exit().catch(() => {});
    if (signal?.aborted) throw abortedError(signal);
    throw loadError(error, log);
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
  if (signal?.aborted) {
    void wllama.exit().catch(() => {});
    throw abortedError(signal);
  }
  // wllama resolves even when llama.cpp could not make the model or its context: its answer says so.
  if ((wllama.getLoadedContextInfo() as { success?: boolean }).success === false) {
    void wllama.exit().catch(() => {});
    throw loadError(new Error('llama.cpp did not load the model'), log);
  }
  return { wllama, contextSize, template: source, log };
}

const OUT_OF_MEMORY =
  /out of memory|insufficient memory|\bOOM\b|failed to allocate|unable to allocate|cannot enlarge memory|allocation failed|could not allocate|memory access out of bounds/i;

/** A load failure as a coded error: `out_of_memory` when llama.cpp or the wasm ran out, else `load_failed`. */
function loadError(error: unknown, log: readonly string[]): LocalModelError {
  const message = errorMessage(error);
  const detail = log
    .filter((line) => line.startsWith('error'))
    .slice(-5)
    .join('\n');
  const text = `${message}\n${detail}`;
  if (OUT_OF_MEMORY.test(text)) {
    return new LocalModelError('out_of_memory', `The model does not fit in memory: ${message}${detail ? `\n${detail}` : ''}`, { cause: error });
  }
  return new LocalModelError('load_failed', `llama.cpp could not load the model: ${message}${detail ? `\n${detail}` : ''}`, { cause: error });
}

/**
 * What llama.cpp and wllama say when the prompt does not fit the context. Specific phrases only:
 * "context" alone also appears in failures that are not about size ("failed to create context").
 */
const CONTEXT_OVERFLOW =
  /\bn_ctx\b|context (?:size|length|window) (?:has been |was )?exceeded|exceeds? the (?:available |maximum )?context|context is full|out of context|running out of context|(?:no )?free space in the KV cache|KV cache is full|kv_cache_full|(?:prompt|input|request|conversation) is too long|too long for the context|context shift is disabled/i;

/** A generation failure as a coded error (the caller handles aborts). */
export function generationError(error: unknown, log: readonly string[]): LocalModelError {
  const message = errorMessage(error);
  // Memory first: "failed to allocate the KV cache" is out of memory, not a long prompt.
  if (OUT_OF_MEMORY.test(message)) {
    return new LocalModelError('out_of_memory', `The model ran out of memory while generating: ${message}`, { cause: error });
  }
  if (CONTEXT_OVERFLOW.test(message) || (error as { type?: unknown } | null)?.type === 'kv_cache_full') {
    return new LocalModelError('context_overflow', `The conversation does not fit in the model's context: ${message}`, { cause: error });
  }
  const detail = log
    .filter((line) => line.startsWith('error'))
    .slice(-3)
    .join('\n');
  return new LocalModelError('generation_failed', `llama.cpp failed while generating: ${message}${detail ? `\n${detail}` : ''}`, { cause: error });
}
