// The idle timeout of one HTTP attempt, on fake timers: time passes only when the test says so.
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { startLifetime } from '../../src/engines/openai/request-lifetime.js';
import { EngineError } from '../../src/index.js';

const otherwise = (error: unknown) => new EngineError('network_error', String(error));

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('request lifetime: idle timeout', () => {
  test('stays open while data keeps coming, and times out a whole idle period after the last read', () => {
    const lifetime = startLifetime(undefined, 100);
    for (let i = 0; i < 10; i++) {
      vi.advanceTimersByTime(60);
      lifetime.touch();
    }
    vi.advanceTimersByTime(99);
    expect(lifetime.signal.aborted).toBe(false);
    vi.advanceTimersByTime(1);
    expect(lifetime.signal.aborted).toBe(true);
    expect(lifetime.explain(new Error('cut'), otherwise).code).toBe('timeout');
    lifetime.dispose();
  });

  test('a read sets no timer: one timer serves the whole attempt', () => {
    const setTimer = vi.spyOn(globalThis, 'setTimeout');
    const lifetime = startLifetime(undefined, 100);
    for (let i = 0; i < 1_000; i++) lifetime.touch();
    expect(setTimer).toHaveBeenCalledTimes(1);
    expect(vi.getTimerCount()).toBe(1);
    lifetime.dispose();
    expect(vi.getTimerCount()).toBe(0);
  });

  test("the caller's abort is aborted, not timeout, and leaves no timer once disposed", () => {
    const caller = new AbortController();
    const lifetime = startLifetime(caller.signal, 100);
    caller.abort('stop');
    expect(lifetime.signal.aborted).toBe(true);
    expect(lifetime.explain(new Error('cut'), otherwise).code).toBe('aborted');
    lifetime.dispose();
    expect(vi.getTimerCount()).toBe(0);
  });

  test('no idle limit: no timer at all', () => {
    const lifetime = startLifetime(undefined, undefined);
    expect(vi.getTimerCount()).toBe(0);
    lifetime.dispose();
  });
});
