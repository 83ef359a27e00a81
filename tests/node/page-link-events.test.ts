// Run events on their way from the runner worker to the page (PageLink): events of one run that
// come within a batch interval cross in one message, text deltas merged, in order; the end of a
// run's events crosses at once; a long text crosses in slices; a batch that will not clone still
// delivers what does. The batch timer is faked; what crosses is read back as the page reads it.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RunEvent } from '../../src/index.js';
import { BATCH_MS, PageLink } from '../../src/worker/runner/page-link.js';
import { EventUnpacker } from '../../src/worker/wire/event-codec.js';
import { EVENTS, type EventsMessage, type PageHostApi } from '../../src/worker/wire/protocol.js';

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
});
afterEach(() => {
  vi.useRealTimers();
});

type Batch = Array<[string, RunEvent[] | null]>;

/** A PageLink whose channel records each batch it is sent (cloned, as it crosses), its events unpacked as the page does. */
function link() {
  const batches: Batch[] = [];
  const unpacker = new EventUnpacker(false);
  const postMessage = (message: EventsMessage) => {
    if (message[0] !== EVENTS) return;
    const crossed = structuredClone(message[1]);
    batches.push(crossed.map(([runId, events]) => [runId, events === null ? null : events.map((event) => unpacker.unpack(runId, event))]));
  };
  return { link: new PageLink({} as PageHostApi as never, { postMessage, addEventListener() {}, removeEventListener() {} }), batches };
}

const started = (callId: string): RunEvent => ({ type: 'tool_started', callId, name: 'ping', attempt: 1 });

describe('run events crossing to the page', () => {
  it('go in one batch once its interval is up, in order', () => {
    const { link: port, batches } = link();
    port.event('r1', started('a'));
    port.event('r1', started('b'));
    expect(batches).toEqual([]);
    vi.advanceTimersByTime(BATCH_MS);
    expect(batches).toEqual([[['r1', [started('a'), started('b')]]]]);
  });

  it('go on the next task after a quiet time, then at most once a batch time', () => {
    const { link: port, batches } = link();
    port.event('r1', started('a'));
    vi.advanceTimersByTime(0);
    expect(batches).toEqual([[['r1', [started('a')]]]]);
    port.event('r1', started('b'));
    port.event('r1', started('c'));
    vi.advanceTimersByTime(BATCH_MS - 1);
    expect(batches).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(batches).toEqual([[['r1', [started('a')]]], [['r1', [started('b'), started('c')]]]]);
  });

  it('merge consecutive text deltas of one run, and keep two runs apart in order', () => {
    const { link: port, batches } = link();
    port.event('r1', { type: 'text_delta', text: 'Hel' });
    port.event('r1', { type: 'text_delta', text: 'lo' });
    port.event('r2', { type: 'text_delta', text: 'other' });
    port.event('r1', { type: 'text_delta', text: '!' });
    vi.advanceTimersByTime(BATCH_MS);
    expect(batches).toEqual([
      [
        ['r1', [{ type: 'text_delta', text: 'Hello' }]],
        ['r2', [{ type: 'text_delta', text: 'other' }]],
        ['r1', [{ type: 'text_delta', text: '!' }]],
      ],
    ]);
  });

  it("send a run's end at once, with what was queued before it", () => {
    const { link: port, batches } = link();
    port.event('r1', started('a'));
    port.event('r1', null);
    expect(batches).toEqual([
      [
        ['r1', [started('a')]],
        ['r1', null],
      ],
    ]);
  });

  it('send a long text at once, in slices of at most 64 KiB', () => {
    const { link: port, batches } = link();
    port.event('r1', { type: 'text_delta', text: 'x'.repeat(200 * 1024) });
    const slices = batches.flatMap((batch) => batch.flatMap(([, events]) => events ?? [])) as Array<{ text: string }>;
    expect(slices.length).toBeGreaterThanOrEqual(3);
    expect(slices.every((slice) => slice.text.length <= 64 * 1024)).toBe(true);
    vi.advanceTimersByTime(BATCH_MS);
    const all = batches.flatMap((batch) => batch.flatMap(([, events]) => events ?? [])) as Array<{ text: string }>;
    expect(all.map((slice) => slice.text).join('')).toBe('x'.repeat(200 * 1024));
  });

  it('never change an event the runner still holds when merging text into it', () => {
    const { link: port } = link();
    const first: RunEvent = { type: 'text_delta', text: 'a' };
    port.event('r1', first);
    port.event('r1', { type: 'text_delta', text: 'b' });
    expect(first).toEqual({ type: 'text_delta', text: 'a' });
  });

  it('cross a batch that will not clone event by event, the one that will not replaced by a warning', () => {
    const { link: port, batches } = link();
    port.event('r1', started('a'));
    port.event('r1', { type: 'warning', code: 'odd', message: 'x', held: () => {} } as unknown as RunEvent);
    port.event('r1', null);
    const crossed = batches.flatMap((batch) => batch.flatMap(([, events]) => events ?? [null]));
    expect(crossed).toEqual([started('a'), { type: 'warning', code: 'event_uncloneable', message: expect.stringContaining('could not cross') }, null]);
  });
});
