import { describe, expect, test } from 'vitest';
import { inspectGguf } from '../../src/engines/local/gguf.js';
import { tensorBytes } from '../../src/engines/local/ggml-types.js';
import { isAmbiError } from '../../src/index.js';
import { LocalModelError } from '../../src/extend/index.js';
import { TINY_CHATML_TEMPLATE, tinyGguf, tinyVocabulary } from '../support/tiny-gguf.js';

const blobOf = (bytes: Uint8Array<ArrayBuffer>) => new Blob([bytes]);

async function codeOf(blob: Blob): Promise<string> {
  try {
    await inspectGguf(blob);
    return 'ok';
  } catch (error) {
    expect(error).toBeInstanceOf(LocalModelError);
    return isAmbiError(error) ? error.code : 'not coded';
  }
}

describe('the tiny GGUF generator', () => {
  test('is deterministic: the same seed gives the same bytes, another seed other weights', () => {
    const same = (a: Uint8Array, b: Uint8Array) => Buffer.from(a).equals(Buffer.from(b));
    expect(same(tinyGguf({ seed: 7 }), tinyGguf({ seed: 7 }))).toBe(true);
    const a = tinyGguf({ seed: 7 });
    const b = tinyGguf({ seed: 8 });
    expect(a.length).toBe(b.length);
    expect(same(a, b)).toBe(false);
  });

  test('is a few hundred KB: about 250 KB in F16, 490 KB in F32', () => {
    expect(tinyGguf().length).toBeGreaterThan(200_000);
    expect(tinyGguf().length).toBeLessThan(300_000);
    expect(tinyGguf({ f16: false }).length).toBeGreaterThan(450_000);
    expect(tinyGguf({ f16: false }).length).toBeLessThan(520_000);
  });

  test('has the 361-token vocabulary: specials, 256 bytes, ▁, printable ASCII, a few pieces', () => {
    const vocab = tinyVocabulary();
    expect(vocab).toHaveLength(361);
    expect(vocab.slice(0, 3).map((t) => t.text)).toEqual(['<unk>', '<s>', '</s>']);
    // Lone high bytes cannot be sampled (invalid UTF-8); `</s>` only in endless mode.
    expect(vocab.filter((t) => t.banned).map((t) => t.text)).toContain('<0x80>');
    expect(vocab.find((t) => t.text === '</s>')!.banned).toBe(false);
    expect(tinyVocabulary(true).find((t) => t.text === '</s>')!.banned).toBe(true);
  });

  test('reads back as GGUF v3 with its chat template, or without one', async () => {
    const info = await inspectGguf(blobOf(tinyGguf()));
    expect(info.version).toBe(3);
    expect(info.tensorCount).toBe(1 + 2 * 9 + 2);
    expect(info.metadata.get('general.architecture')).toBe('llama');
    expect(info.metadata.get('llama.context_length')).toBe(4096);
    expect(info.metadata.get('tokenizer.chat_template')).toBe(TINY_CHATML_TEMPLATE);
    expect(info.requiredBytes).toBeLessThanOrEqual(tinyGguf().length);
    expect(info.requiredBytes).toBeGreaterThan(tinyGguf().length - 64);
    const bare = await inspectGguf(blobOf(tinyGguf({ chatTemplate: null })));
    expect(bare.metadata.has('tokenizer.chat_template')).toBe(false);
  });
});

describe('checking a file before llama.cpp sees it', () => {
  test('a file that does not start with the GGUF magic is not_gguf', async () => {
    expect(await codeOf(new Blob(['<!doctype html><title>404</title>']))).toBe('not_gguf');
    expect(await codeOf(new Blob([]))).toBe('not_gguf');
    expect(await codeOf(new Blob(['GGU']))).toBe('not_gguf');
  });

  test('a GGUF version other than 2 or 3 is unsupported_gguf_version', async () => {
    const bytes = tinyGguf();
    new DataView(bytes.buffer).setUint32(4, 1, true);
    expect(await codeOf(blobOf(bytes))).toBe('unsupported_gguf_version');
  });

  test('a file cut anywhere, in its header or in its tensor data, is truncated_model', async () => {
    const bytes = tinyGguf();
    for (const length of [8, 20, 100, 5_000, 10_000, 60_000, 150_000, bytes.length - 1]) {
      expect(await codeOf(blobOf(bytes.slice(0, length))), `cut at ${length}`).toBe('truncated_model');
    }
  });

  test('the whole file passes', async () => {
    expect(await codeOf(blobOf(tinyGguf()))).toBe('ok');
  });

  test('tensor sizes follow ggml block sizes', () => {
    expect(tensorBytes(0, [64, 361])).toBe(64 * 361 * 4);
    expect(tensorBytes(1, [64, 361])).toBe(64 * 361 * 2);
    expect(tensorBytes(2, [4096, 10])).toBe((4096 / 32) * 18 * 10); // Q4_0
    expect(tensorBytes(12, [4096, 2])).toBe((4096 / 256) * 144 * 2); // Q4_K
    expect(tensorBytes(999, [4])).toBeUndefined();
  });
});
