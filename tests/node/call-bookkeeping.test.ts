// The cheap bookkeeping under every call: timeouts on one timer, aborts without a listener
// or signal per call, argument copies without structuredClone.
import { describe, expect, it, vi } from 'vitest';
import { LazyAbortController, onAbort } from '../../src/util/abort-source.js';
import { copyArgs } from '../../src/validation/copy-args.js';
import { deadline } from '../../src/util/deadlines.js';

const waitFor = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const timersKeepingNodeAlive = () => process.getActiveResourcesInfo().filter((type) => type === 'Timeout').length;

describe('deadlines', () => {
  it('fires in deadline order, whatever the order they were set in', async () => {
    const fired: string[] = [];
    deadline(60, () => fired.push('late'));
    deadline(5, () => fired.push('early'));
    deadline(30, () => fired.push('middle'));
    await waitFor(120);
    expect(fired).toEqual(['early', 'middle', 'late']);
  });

  it('never fires a deadline that was cancelled, even among thousands', async () => {
    const fire = vi.fn();
    const keep = vi.fn();
    for (let i = 0; i < 5_000; i++) deadline(10, fire)();
    deadline(20, keep);
    await waitFor(60);
    expect(fire).not.toHaveBeenCalled();
    expect(keep).toHaveBeenCalledTimes(1);
  });

  it('keeps Node running only while a deadline is live', async () => {
    const before = timersKeepingNodeAlive();
    const cancel = deadline(60_000, () => {});
    expect(timersKeepingNodeAlive()).toBe(before + 1);
    cancel();
    expect(timersKeepingNodeAlive()).toBe(before);
  });

  it('lets go of a cancelled deadline’s callback (and what it holds) before the deadline passes', async () => {
    const { gc } = globalThis as { gc?: () => void };
    if (!gc) throw new Error('run with --expose-gc (the node project in vite.config.ts passes it)');
    const held = (() => {
      const scope = { args: 'x'.repeat(1_000) };
      deadline(60_000, () => void scope.args)();
      return new WeakRef(scope);
    })();
    await waitFor(0); // a WeakRef keeps its target alive until the current job ends
    gc();
    expect(held.deref()).toBeUndefined();
  });

  it('still fires after a throwing neighbour, and reports the throw', async () => {
    const thrown = new Promise<unknown>((resolve) => process.once('uncaughtException', resolve));
    deadline(5, () => {
      throw new Error('boom');
    });
    // Awaited rather than checked at once: on a loaded machine the two may fall in different timer turns.
    const fired = new Promise<string>((resolve) => deadline(5, () => resolve('fired')));
    expect(await thrown).toMatchObject({ message: 'boom' });
    expect(await fired).toBe('fired');
  });
});

describe('LazyAbortController', () => {
  it('makes no signal until one is read, and a signal read after the abort is already aborted with the reason', () => {
    const controller = new LazyAbortController();
    const reason = new Error('stop');
    controller.abort(reason);
    expect(controller.aborted).toBe(true);
    expect(controller.signal.aborted).toBe(true);
    expect(controller.signal.reason).toBe(reason);
    expect(controller.reason).toBe(reason);
  });

  it('aborts a signal read before the abort, and runs each callback once', () => {
    const controller = new LazyAbortController();
    const signal = controller.signal;
    const callback = vi.fn();
    const cancelled = vi.fn();
    controller.onAbort(callback);
    controller.onAbort(cancelled)();
    controller.abort('why');
    controller.abort('again');
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBe('why');
    expect(callback).toHaveBeenCalledTimes(1);
    expect(cancelled).not.toHaveBeenCalled();
  });

  it('gives a default AbortError reason when aborted without one', () => {
    const controller = new LazyAbortController();
    const early = controller.signal;
    controller.abort();
    expect((early.reason as DOMException).name).toBe('AbortError');
    const late = new LazyAbortController();
    late.abort();
    expect((late.signal.reason as DOMException).name).toBe('AbortError');
  });
});

describe('onAbort', () => {
  it('runs every waiting callback once when the signal aborts, but not cancelled ones', () => {
    const controller = new AbortController();
    const calls: number[] = [];
    const cancels = Array.from({ length: 200 }, (_, i) => onAbort(controller.signal, () => calls.push(i)));
    for (let i = 0; i < 200; i += 2) cancels[i]!();
    controller.abort();
    controller.abort();
    expect(calls).toEqual(Array.from({ length: 100 }, (_, i) => 2 * i + 1));
  });

  it('never runs a callback for a signal that had already aborted', () => {
    const callback = vi.fn();
    onAbort(AbortSignal.abort(), callback);
    expect(callback).not.toHaveBeenCalled();
  });
});

describe('copyArgs', () => {
  it('copies plain JSON deeply, equal and unshared', () => {
    const value = { a: [1, { b: 'x' }, null], c: { d: true, e: 2.5 } };
    const { copy, json } = copyArgs(value) as { copy: typeof value; json: boolean };
    expect(json).toBe(true);
    expect(copy).toEqual(value);
    expect(copy).not.toBe(value);
    expect(copy.a).not.toBe(value.a);
    expect(copy.a[1]).not.toBe(value.a[1]);
  });

  it('keeps an own "__proto__" key a key', () => {
    const copy = copyArgs(JSON.parse('{"__proto__": {"polluted": true}}')).copy as Record<string, unknown>;
    expect(Object.keys(copy)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('copies what is not plain JSON as structuredClone does, and refuses what it refuses', () => {
    const when = new Date(0);
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic.self = cyclic;
    expect(copyArgs({ when })).toEqual({ copy: { when }, json: false });
    expect((copyArgs({ when }).copy as { when: Date }).when).toBeInstanceOf(Date);
    const copied = copyArgs(cyclic).copy as Record<string, unknown>;
    expect(copied.self).toBe(copied);
    // undefined is not JSON: copied as structuredClone keeps it, and marked not JSON, so a validator reads it as JSON would.
    expect(copyArgs({ a: undefined })).toEqual({ copy: { a: undefined }, json: false });
    expect('a' in (copyArgs({ a: undefined }).copy as object)).toBe(true);
    expect(() => copyArgs({ f: () => 1 })).toThrow();
  });
});
