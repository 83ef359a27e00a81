// Coded failures of the local engine with Blob sources, on a real llama.cpp (wllama) in Chromium.
import { describe, expect, test } from 'vitest';
import { Agent, ChatRunner, isAmbiError, localModel } from '../../src/index.js';
import { createLocalEngine, LocalModelError, type LocalEngine, type LocalModelOptions } from '../../src/extend/index.js';
import { tinyGguf } from '../support/tiny-gguf.js';

const engineFor = (source: Blob, options: Partial<LocalModelOptions> = {}): LocalEngine =>
  createLocalEngine(localModel({ source, threads: 1, maxTokens: 4, ...options }));

async function failure(promise: Promise<unknown>): Promise<{ code: string; message: string; error: unknown }> {
  try {
    await promise;
  } catch (error) {
    return { code: isAmbiError(error) ? error.code : 'not coded', message: error instanceof Error ? error.message : String(error), error };
  }
  throw new Error('expected a failure');
}

describe('files that are not a whole GGUF model never reach llama.cpp', () => {
  test('a file that is not GGUF fails with not_gguf, from load() and from a run', async () => {
    const engine = engineFor(new Blob(['<!doctype html><p>Not a model</p>']));
    const loaded = await failure(engine.load());
    expect(loaded.code).toBe('not_gguf');
    expect(loaded.error).toBeInstanceOf(LocalModelError);
    const agent = await Agent.make(engine);
    const run = await failure(new ChatRunner().run(agent, 'hi').result);
    expect(run.code).toBe('not_gguf');
  });

  test('a truncated file fails with truncated_model, whether cut in the header or in the weights', async () => {
    const bytes = tinyGguf();
    for (const length of [64, Math.floor(bytes.length / 2), bytes.length - 100]) {
      const { code, message } = await failure(engineFor(new Blob([bytes.slice(0, length)])).load());
      expect(code, `cut at ${length}`).toBe('truncated_model');
      expect(message).toMatch(/cut short/);
    }
  });

  test('an unsupported GGUF version fails with unsupported_gguf_version', async () => {
    const bytes = tinyGguf();
    new DataView(bytes.buffer).setUint32(4, 99, true);
    expect((await failure(engineFor(new Blob([bytes])).load())).code).toBe('unsupported_gguf_version');
  });
});

describe('what llama.cpp refuses', () => {
  test('a model too big for WebAssembly memory fails with out_of_memory, before any request', async () => {
    // The KV cache of a 16M-token context is 4 GB: more than a 32-bit wasm can ever hold.
    const huge = 1 << 24;
    const engine = engineFor(new Blob([tinyGguf({ contextLength: huge })]), { contextSize: huge });
    const { code, message } = await failure(engine.load());
    expect(code).toBe('out_of_memory');
    expect(message).toMatch(/memory/);
  }, 30_000);

  test('a GGUF llama.cpp cannot run fails with load_failed and its reason', async () => {
    const engine = engineFor(new Blob([tinyGguf({ architecture: 'no-such-architecture' })]));
    const { code, message } = await failure(engine.load());
    expect(code).toBe('load_failed');
    expect(message).toMatch(/no-such-architecture|architecture/);
  }, 30_000);
});

describe('aborting a load', () => {
  test('an abort while the model loads rejects with aborted; the next request loads it afresh', async () => {
    const engine = engineFor(new Blob([tinyGguf()]));
    const controller = new AbortController();
    const loading = engine.load({ signal: controller.signal });
    setTimeout(() => controller.abort(new Error('changed my mind')), 20);
    expect((await failure(loading)).code).toBe('aborted');
    expect(engine.model).toBeUndefined();

    const events = [];
    for await (const event of engine.stream({ messages: [{ role: 'user', content: 'hi' }], tools: [] })) events.push(event);
    expect(events.at(-1)).toMatchObject({ type: 'finish' });
    await engine.unload();
  }, 30_000);

  test('a request already aborted fails at once without loading anything', async () => {
    const engine = engineFor(new Blob([tinyGguf()]));
    const controller = new AbortController();
    controller.abort();
    const started = performance.now();
    const { code } = await failure(engine.load({ signal: controller.signal }));
    expect(code).toBe('aborted');
    expect(performance.now() - started).toBeLessThan(50);
    expect(engine.model).toBeUndefined();
  });

  test('one of two waiting requests giving up does not cancel the load the other waits for', async () => {
    const engine = engineFor(new Blob([tinyGguf()]));
    const impatient = new AbortController();
    const first = engine.load({ signal: impatient.signal });
    const second = engine.load();
    impatient.abort();
    expect((await failure(first)).code).toBe('aborted');
    await expect(second).resolves.toMatchObject({ from: 'blob' });
    await engine.unload();
  }, 30_000);
});
