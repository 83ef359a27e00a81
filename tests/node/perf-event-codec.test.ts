import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../../src/runner/events.js';
import { packEvents, unpackEvents } from '../../src/worker/wire/event-codec.js';

/** What the page gets for `events`: packed, cloned as postMessage clones, unpacked. */
const crossed = (events: RunEvent[]) => unpackEvents(structuredClone(packEvents(events, [])));

/** Every object's own keys, in order, depth first: a clone keeps the order, and so must the codec. */
function keyOrder(value: unknown): string[] {
  if (typeof value !== 'object' || value === null) return [];
  return Object.keys(value).flatMap((key) => [key, ...keyOrder((value as Record<string, unknown>)[key])]);
}

const call = { id: 'call_1', name: 'ping', arguments: { q: 'x', n: -0, missing: undefined }, idempotencyKey: 'key-1' };

const events: RunEvent[] = [
  { type: 'run_started', runId: 'r1', input: 'go' },
  { type: 'tool_call', call },
  { type: 'tool_started', callId: 'call_1', name: 'ping', attempt: 1 },
  { type: 'tool_finished', result: { id: 'call_1', name: 'ping', ok: true, output: { when: 'now', list: [1, null, 'a'] }, attempts: 1, durationMs: 0.25 } },
  {
    type: 'tool_finished',
    result: { id: 'call_2', name: 'ping', ok: false, error: { code: 'timeout', message: 'slow' }, attempts: 2, durationMs: Number.NaN },
  },
  { type: 'text_delta', text: 'hello' },
  // The same types with keys the runner does not give them cross as they are.
  { type: 'tool_started', callId: 'call_3', name: 'ping', attempt: 1, leafId: 'leaf-1' },
  { type: 'tool_finished', result: { id: 'call_3', name: 'ping', ok: true, output: 'pong', attempts: 1, durationMs: 1 }, leafId: 'leaf-1' },
  { type: 'tool_call', call: { id: 'call_4', name: 'ping', arguments: {} } },
  { type: 'tool_call', call: { name: 'ping', id: 'call_5', arguments: {}, idempotencyKey: 'k' } },
  { type: 'tool_finished', result: { id: 'call_6', name: 'ping', ok: true, output: 1, attempts: 1, durationMs: 1, extra: true } as never },
  { type: 'tool_started', attempt: 1, callId: 'call_7', name: 'ping' },
  // A result right after a start of another call, or of another tool, names its own.
  { type: 'tool_started', callId: 'call_8', name: 'ping', attempt: 1 },
  { type: 'tool_finished', result: { id: 'call_9', name: 'ping', ok: true, output: 'pong', attempts: 1, durationMs: 1 } },
  { type: 'tool_started', callId: 'call_10', name: 'ping', attempt: 2 },
  { type: 'tool_finished', result: { id: 'call_10', name: 'pong', ok: false, error: { code: 'crashed', message: 'x' }, attempts: 2, durationMs: 3 } },
  { type: 'tool_started', callId: 'call_11', name: 'ping', attempt: 1 },
  { type: 'tool_finished', result: { id: 'call_11', name: 'ping', ok: false, error: { code: 'tool_error', message: 'no' }, attempts: 1, durationMs: 2 } },
  { type: 'iteration_finished', iteration: 1, finishReason: 'tool_calls', toolCalls: 2 },
];

describe('run events crossing to the page (event-codec)', () => {
  it('arrive as a clone of each event would: same values, same keys in the same order', () => {
    const page = crossed(events);
    expect(page).toStrictEqual(structuredClone(events));
    expect(page.map(keyOrder)).toEqual(events.map(keyOrder));
    expect(Object.is((page[1] as { call: typeof call }).call.arguments.n, -0)).toBe(true);
  });

  it('keep their order across packed and unpacked ones, and an empty batch stays empty', () => {
    expect(crossed(events).map((event) => event.type)).toEqual(events.map((event) => event.type));
    expect(crossed([])).toEqual([]);
  });
});
