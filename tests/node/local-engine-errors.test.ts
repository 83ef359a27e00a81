// How the local engine codes llama.cpp's generation failures (the classifier alone: no wasm needed).
import { describe, expect, it } from 'vitest';
import { generationError } from '../../src/engines/local/runtime.js';

const codeOf = (error: unknown) => generationError(error, []).code;

describe('local engine: generation failures', () => {
  it.each([
    'the request exceeds the available context size, try increasing it',
    'prompt is too long (5000 tokens, max 4092)',
    'Context size has been exceeded.',
    'context is full',
    'failed to find free space in the KV cache',
    'n_ctx is too small for the prompt',
    'context shift is disabled',
  ])('"%s" is context_overflow', (message) => {
    expect(codeOf(new Error(message))).toBe('context_overflow');
  });

  it("wllama's kv_cache_full error is context_overflow whatever its message", () => {
    expect(codeOf(Object.assign(new Error('decode failed'), { type: 'kv_cache_full' }))).toBe('context_overflow');
  });

  it.each([
    'failed to create context',
    'llama_decode: invalid token in context',
    'the sampler could not exceed its own limits',
    'KV cache type q4_0 is not supported',
    'failed to initialize the KV cache',
  ])('"%s" mentions context or exceed but is generation_failed', (message) => {
    expect(codeOf(new Error(message))).toBe('generation_failed');
  });

  it('a KV cache that cannot be allocated is out_of_memory, not context_overflow', () => {
    expect(codeOf(new Error('failed to allocate buffer for the KV cache'))).toBe('out_of_memory');
  });
});
