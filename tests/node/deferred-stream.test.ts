// deferredStream: an engine's stream made on first use and passed on event by event, errors
// rewritten on the way out, an early end passed to the inner stream.
import { describe, expect, it } from 'vitest';
import { deferredStream } from '../../src/engines/deferred-stream.js';

async function* count(to: number, log: string[], failAt?: number) {
  try {
    for (let i = 1; i <= to; i++) {
      if (i === failAt) throw new Error(`failed at ${i} of https://user:key@host/v1`);
      log.push(`yield ${i}`);
      yield i;
    }
  } finally {
    log.push('inner ended');
  }
}

describe('deferredStream', () => {
  it('opens the stream only on the first next(), then passes every event in order', async () => {
    const log: string[] = [];
    const stream = deferredStream(async () => {
      log.push('opened');
      return count(3, log);
    });
    expect(log).toEqual([]);
    const seen: number[] = [];
    for await (const n of stream) seen.push(n);
    expect(seen).toEqual([1, 2, 3]);
    expect(log).toEqual(['opened', 'yield 1', 'yield 2', 'yield 3', 'inner ended']);
  });

  it('rewrites what the stream throws, and what opening it throws, with mapError', async () => {
    const mapError = (error: unknown) => new Error(`mapped: ${(error as Error).message.replace('user:key@', '')}`);
    const failing = deferredStream(() => count(5, [], 2), mapError);
    const seen: number[] = [];
    const error = await (async () => {
      for await (const n of failing) seen.push(n);
    })().catch((e: unknown) => e);
    expect(seen).toEqual([1]);
    expect((error as Error).message).toBe('mapped: failed at 2 of https://host/v1');
    const unopened = deferredStream<number>(() => Promise.reject(new Error('no code')), mapError);
    await expect(unopened[Symbol.asyncIterator]().next()).rejects.toThrow('mapped: no code');
  });

  it('a reader that stops early ends the inner stream (its finally runs)', async () => {
    const log: string[] = [];
    for await (const n of deferredStream(() => count(10, log))) if (n === 2) break;
    expect(log).toEqual(['yield 1', 'yield 2', 'inner ended']);
  });

  it('ended before it opened, it opens nothing', async () => {
    let opened = false;
    const iterator = deferredStream(() => {
      opened = true;
      return count(1, []);
    })[Symbol.asyncIterator]();
    expect(await iterator.return?.()).toEqual({ done: true, value: undefined });
    expect(opened).toBe(false);
  });
});
