// The demo's run file (demo/ui/run-file.ts): a run's events and cassette exported, and a file read
// back as someone else's data (not JSON, another kind, events the timeline cannot draw), and the
// tokens the timeline shows (demo/ui/timeline-layout.ts).
import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../../src/index.js';
import { readRunFile, RUN_FILE_KIND, runFile } from '../../demo/ui/run-file.js';
import type { StampedEvent } from '../../demo/ui/timeline-lanes.js';
import { layoutTimeline } from '../../demo/ui/timeline-layout.js';

const started: RunEvent = { type: 'run_started', runId: 'r', input: 'go' };
const usage = (totalTokens: number, estimated = false): RunEvent => ({
  type: 'usage',
  usage: { promptTokens: totalTokens - 1, completionTokens: 1, totalTokens, ...(estimated ? { estimated: true as const } : {}) },
});
const stamped = (...events: RunEvent[]): StampedEvent[] => events.map((event, i) => ({ at: 1000 + 10 * i, event }));

describe('demo run file', () => {
  it('writes events with times from the first one, and its cassette; reads them back the same', () => {
    const events = stamped(started, { type: 'tool_call', call: { id: 'a', name: 'read_page', arguments: {} } }, usage(15));
    const cassette = { kind: 'ambi-web-cassette', version: 1, engine: { provider: 'p', nativeTools: true }, interactions: [] } as const;
    const file = runFile(events, { ...cassette, interactions: [] });
    expect(file.kind).toBe(RUN_FILE_KIND);
    expect(file.events.map((e) => e.at)).toEqual([0, 10, 20]);
    const read = readRunFile(JSON.stringify(file));
    expect(read).toEqual({ events: file.events, dropped: 0, requests: 0 });
  });

  it.each([
    ['text that is not JSON', 'not json{', 'it is not JSON'],
    ['JSON of another kind', JSON.stringify({ kind: 'something-else', events: [] }), 'its "kind" is not'],
    ['a version it does not read', JSON.stringify({ kind: RUN_FILE_KIND, version: 9, events: [] }), 'version'],
    ['events that are not a list', JSON.stringify({ kind: RUN_FILE_KIND, version: 1, events: { 0: {} } }), 'no list of events'],
  ])('refuses %s, saying why', (_what, text, said) => {
    expect(() => readRunFile(text)).toThrow(said);
  });

  it('leaves out, and counts, events the timeline could not draw; keeps the order of time', () => {
    const json = JSON.stringify({
      kind: RUN_FILE_KIND,
      version: 1,
      events: [
        { at: 0, event: started },
        { at: 1, event: { type: 'tool_finished' } }, // no result
        { at: 2, event: { type: 'tool_call', call: { id: 7, name: 'x' } } }, // id not text
        { at: 'soon', event: started },
        { at: 3, event: { type: 'run_failed', error: { code: 'aborted' } } }, // no message
        { at: 4, event: { type: 'usage', usage: { totalTokens: '9' } } },
        { at: 'HUGE', event: started }, // written 1e309 below: Infinity once parsed
        { at: 5, event: { type: 'iteration_finished', toolCalls: 1 } },
        { at: 2, event: { type: 'text_delta', text: 'late' } },
      ],
    });
    // A `__proto__` key in the file stays a key of its own: no prototype is touched.
    const text = json.replace('"HUGE"', '1e309').replace('"type":"iteration_finished"', '"__proto__":{"type":"tool_finished"},"type":"iteration_finished"');
    const read = readRunFile(text);
    expect(read.dropped).toBe(6);
    expect(read.events.map((e) => [e.at, e.event.type])).toEqual([
      [0, 'run_started'],
      [5, 'iteration_finished'],
      [5, 'text_delta'],
    ]);
    expect(({} as { type?: unknown }).type).toBeUndefined();
    // What is left lays out without a throw.
    expect(layoutTimeline(read.events, 5).status).toBe('running');
  });

  it('the timeline sums tokens over every request, a leaf’s included, and says when some are estimates', () => {
    const leafUsage = { ...usage(40), leafId: 'leaf-1' } as RunEvent;
    expect(layoutTimeline(stamped(started, usage(15), leafUsage, usage(30)), 2000).tokens).toEqual({ total: 85, requests: 3, estimated: false });
    expect(layoutTimeline(stamped(started, usage(15), usage(7, true)), 2000).tokens).toEqual({ total: 22, requests: 2, estimated: true });
    expect(layoutTimeline(stamped(started), 2000).tokens).toBeUndefined();
  });
});
