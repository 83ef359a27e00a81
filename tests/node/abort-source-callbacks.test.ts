// LazyAbortController keeps its first abort callback in a field and makes a Set only for a
// second: these pin that the callbacks still run once each, in the order they came, and that
// each unhook removes exactly its own, whichever form it was held in.
import { describe, expect, it } from 'vitest';
import { LazyAbortController } from '../../src/util/abort-source.js';

describe('LazyAbortController callbacks', () => {
  it('runs one callback once, with the reason readable from it', () => {
    const controller = new LazyAbortController();
    const seen: unknown[] = [];
    controller.onAbort(() => seen.push(controller.reason));
    controller.abort('stop');
    controller.abort('again');
    expect(seen).toEqual(['stop']);
  });

  it('runs several callbacks in the order they came', () => {
    const controller = new LazyAbortController();
    const order: number[] = [];
    for (const n of [1, 2, 3]) controller.onAbort(() => order.push(n));
    controller.abort();
    expect(order).toEqual([1, 2, 3]);
  });

  it('an unhooked first callback does not run, before or after a second one came', () => {
    const before = new LazyAbortController();
    const ranBefore: string[] = [];
    before.onAbort(() => ranBefore.push('first'))();
    before.onAbort(() => ranBefore.push('second'));
    before.abort();
    expect(ranBefore).toEqual(['second']);

    const after = new LazyAbortController();
    const ranAfter: string[] = [];
    const unhookFirst = after.onAbort(() => ranAfter.push('first'));
    after.onAbort(() => ranAfter.push('second'));
    unhookFirst();
    after.abort();
    expect(ranAfter).toEqual(['second']);
  });

  it('unhooking one callback leaves the others, and an unhook after the abort does nothing', () => {
    const controller = new LazyAbortController();
    const ran: string[] = [];
    controller.onAbort(() => ran.push('a'));
    const unhookB = controller.onAbort(() => ran.push('b'));
    controller.onAbort(() => ran.push('c'));
    unhookB();
    controller.abort();
    unhookB();
    expect(ran).toEqual(['a', 'c']);
  });

  it('a callback added after the abort never runs', () => {
    const controller = new LazyAbortController();
    controller.abort();
    let ran = false;
    controller.onAbort(() => {
      ran = true;
    })();
    expect(ran).toBe(false);
  });

  it('the same function added twice runs once, as a Set would hold it', () => {
    const controller = new LazyAbortController();
    let runs = 0;
    const callback = () => {
      runs++;
    };
    controller.onAbort(callback);
    controller.onAbort(callback);
    controller.abort();
    expect(runs).toBe(1);
  });

  it('a single callback that throws is reported, and the signal still aborts', async () => {
    const controller = new LazyAbortController();
    const reported = new Promise<unknown>((resolve) => process.once('uncaughtException', resolve));
    controller.onAbort(() => {
      throw new Error('listener broke');
    });
    controller.abort('why');
    expect(controller.signal.aborted).toBe(true);
    expect(controller.signal.reason).toBe('why');
    expect(await reported).toMatchObject({ message: 'listener broke' });
  });
});
