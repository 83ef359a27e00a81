import { abortedError, throwIfAborted } from '../abort.js';
import { obtainModelBytes } from './download.js';
import { inspectGguf } from './gguf.js';
import type { LocalModelConfig, LocalModelDeps, LocalModelInfo } from './local-model.js';
import { importRuntime, loadModel, type LoadedModel } from './runtime.js';
import { untilAborted } from '../../util/abort-source.js';

interface Pending {
  promise: Promise<Loaded>;
  controller: AbortController;
  waiters: number;
}

type Loaded = LoadedModel & { info: LocalModelInfo };

/**
 * Loads a config's model once and shares it. Requests that arrive while it loads wait for the
 * same load; it is cancelled (and its memory freed) only when every one of them gave up.
 * A failed load is forgotten, so the next request tries again.
 */
export class ModelLoader {
  #model: Loaded | undefined;
  #pending: Pending | undefined;

  constructor(
    private readonly config: LocalModelConfig,
    private readonly deps: LocalModelDeps,
  ) {}

  /** The loaded model's facts, once loaded. */
  get info(): LocalModelInfo | undefined {
    return this.#model?.info;
  }

  /** The loaded model, loading it first if needed. */
  async acquire(signal?: AbortSignal): Promise<Loaded> {
    if (this.#model) return this.#model;
    throwIfAborted(signal);
    const pending = this.#pending ?? this.#start();
    pending.waiters++;
    try {
      return await untilAborted(pending.promise, signal, abortedError);
    } finally {
      pending.waiters--;
      if (signal?.aborted && pending.waiters === 0 && this.#pending === pending) {
        this.#pending = undefined;
        pending.controller.abort(signal.reason);
      }
    }
  }

  /** Free the model (or stop its load); the next request loads it again. */
  async unload(): Promise<void> {
    const pending = this.#pending;
    this.#pending = undefined;
    pending?.controller.abort(new Error('unloaded'));
    const model = this.#model;
    this.#model = undefined;
    await model?.wllama.exit();
  }

  #start(): Pending {
    const controller = new AbortController();
    const pending: Pending = { controller, waiters: 0, promise: this.#load(controller.signal) };
    pending.promise.then(
      (model) => {
        if (this.#pending === pending) {
          this.#pending = undefined;
          this.#model = model;
        } else void model.wllama.exit().catch(() => {}); // unloaded while loading
      },
      () => {
        if (this.#pending === pending) this.#pending = undefined;
      },
    );
    this.#pending = pending;
    return pending;
  }

  async #load(signal: AbortSignal): Promise<Loaded> {
    const { config, deps } = this;
    const started = performance.now();
    const { source } = config;
    // The runtime first: a model download is long, and useless if llama.cpp cannot be loaded.
    const runtime = await importRuntime(config.wasmUrl);
    throwIfAborted(signal);
    const bytes =
      typeof source === 'string'
        ? await obtainModelBytes(source, {
            signal,
            cache: config.cache,
            ...(deps.fetch ? { fetch: deps.fetch } : {}),
            ...(deps.onProgress ? { onProgress: deps.onProgress } : {}),
          })
        : { blob: source, info: await inspectGguf(source), from: 'blob' as const };
    throwIfAborted(signal);
    deps.onProgress?.({ phase: 'load', bytes: bytes.blob.size, from: bytes.from });
    const model = await loadModel(runtime, bytes.blob, bytes.info, config, signal);
    const loadMs = Math.round(performance.now() - started);
    deps.onProgress?.({ phase: 'ready', loadMs });
    return { ...model, info: { bytes: bytes.blob.size, from: bytes.from, contextSize: model.contextSize, template: model.template, loadMs } };
  }
}
