// The demo's run timeline layout (demo/ui/timeline-layout.ts): stamped events in, lanes and segments out.
import { describe, expect, it } from 'vitest';
import type { JsonValue, RunEvent, ToolResult } from '../../src/index.js';
import { laneStatusText, type StampedEvent } from '../../demo/ui/timeline-lanes.js';
import { layoutTimeline } from '../../demo/ui/timeline-layout.js';

/** Events stamped in the order given, at the times given. */
const at = (...pairs: Array<[number, RunEvent]>): StampedEvent[] => pairs.map(([time, event]) => ({ at: time, event }));

const call = (id: string, name: string, args: unknown = {}) => ({ id, name, arguments: args });
const ok = (id: string, name: string, output: JsonValue = 'ok', attempts = 1): ToolResult => ({ id, name, ok: true, output, attempts, durationMs: 1 });
const failed = (id: string, name: string, code: string, attempts = 1): ToolResult => ({
  id,
  name,
  ok: false,
  error: { code, message: `${name} ${code}` },
  attempts,
  durationMs: 1,
});
const started: RunEvent = { type: 'run_started', runId: 'r', input: 'go' };
const finished = { type: 'run_finished', result: { runId: 'r', text: '', messages: [], iterations: 1, toolResults: [] } } as RunEvent;

describe('demo timeline layout', () => {
  it('gives each call its own lane, from proposal to finish, on the shared axis', () => {
    const layout = layoutTimeline(
      at(
        [0, started],
        [10, { type: 'tool_call', call: call('a', 'read_page', { selector: '#notes' }) }],
        [11, { type: 'tool_call', call: call('b', 'search_notes') }],
        [12, { type: 'tool_started', callId: 'a', name: 'read_page', attempt: 1 }],
        [12, { type: 'tool_started', callId: 'b', name: 'search_notes', attempt: 1 }],
        [30, { type: 'tool_finished', result: ok('b', 'search_notes') }],
        [40, { type: 'tool_finished', result: ok('a', 'read_page', 'page text') }],
        [41, { type: 'iteration_finished', iteration: 1, finishReason: 'tool_calls', toolCalls: 2 }],
        [60, { type: 'text_delta', text: 'Done.' }],
        [61, { type: 'iteration_finished', iteration: 2, finishReason: 'stop', toolCalls: 0 }],
        [62, finished],
      ),
      100,
    );
    expect(layout).toMatchObject({ start: 0, end: 62, status: 'finished' });
    expect(layout.lanes.map((lane) => [lane.kind, lane.name])).toEqual([
      ['model', 'model turn 1'],
      ['call', 'read_page'],
      ['call', 'search_notes'],
      ['model', 'model turn 2'],
    ]);
    const [turn1, a, b, turn2] = layout.lanes;
    expect([turn1!.start, turn1!.end]).toEqual([0, 11]);
    expect([turn2!.start, turn2!.end]).toEqual([41, 61]);
    expect(a!.segments).toEqual([
      { kind: 'queued', start: 10, end: 12 },
      { kind: 'attempt', start: 12, end: 40, attempt: 1 },
    ]);
    expect(a).toMatchObject({ status: 'done', arguments: { selector: '#notes' }, result: { output: 'page text' } });
    // Parallel calls overlap on the axis.
    expect(b!.start < a!.end! && a!.start < b!.end!).toBe(true);
  });

  it('a run resumed after a reload goes on in the rows kept: the waiting call continues, the answer is a turn of its own', () => {
    const layout = layoutTimeline(
      at(
        // Before the reload (kept by the page, times below zero on the new page's clock).
        [-500, started],
        [-480, { type: 'tool_call', call: call('d', 'delete_note', { id: 'n-1' }) }],
        [-479, { type: 'approval_requested', call: call('d', 'delete_note', { id: 'n-1' }) }],
        // The resumed run.
        [10, started],
        [11, { type: 'approval_requested', call: call('d', 'delete_note', { id: 'n-1' }) }],
        [40, { type: 'approval_resolved', callId: 'd', approved: true }],
        [41, { type: 'tool_started', callId: 'd', name: 'delete_note', attempt: 1 }],
        [50, { type: 'tool_finished', result: ok('d', 'delete_note', 'deleted') }],
        [70, { type: 'text_delta', text: 'Deleted.' }],
        [71, { type: 'iteration_finished', iteration: 1, finishReason: 'stop', toolCalls: 0 }],
        [72, finished],
      ),
      100,
    );
    expect(layout.lanes.map((lane) => [lane.kind, lane.name])).toEqual([
      ['model', 'model turn 1'],
      ['call', 'delete_note'],
      ['model', 'model turn 2'],
    ]);
    const [turn1, remove, turn2] = layout.lanes;
    expect([turn1!.start, turn1!.end]).toEqual([-500, -480]);
    // The answer's turn starts when the resumed call's result came back.
    expect([turn2!.start, turn2!.end]).toEqual([50, 71]);
    expect(remove).toMatchObject({ status: 'done', approved: true, start: -480, end: 50 });
    expect(remove!.segments.map((segment) => segment.kind)).toEqual(['queued', 'approval', 'approval', 'attempt']);
    expect(layout).toMatchObject({ start: -500, end: 72, status: 'finished' });
  });

  it('marks an exposed turn and the calls it proposed with the sources it read; a turn before them stays unmarked', () => {
    const sources = [{ callId: 'a', name: 'read_page' }];
    const layout = layoutTimeline(
      at(
        [0, started],
        [1, { type: 'tool_call', call: call('a', 'read_page') }],
        [2, { type: 'tool_finished', result: { ...ok('a', 'read_page', 'page words'), untrusted: true } }],
        [3, { type: 'iteration_finished', iteration: 1, finishReason: 'tool_calls', toolCalls: 1 }],
        [4, { type: 'tool_call', call: call('b', 'share_note'), untrusted: { sources } }],
        [5, { type: 'tool_finished', result: failed('b', 'share_note', 'denied') }],
        [6, { type: 'iteration_finished', iteration: 2, finishReason: 'tool_calls', toolCalls: 1, untrusted: { sources } }],
        [7, { type: 'text_delta', text: 'Not shared.' }],
        [
          8,
          {
            type: 'iteration_finished',
            iteration: 3,
            finishReason: 'stop',
            toolCalls: 0,
            untrusted: { sources: [...sources, { callId: 'a2', name: 'read_page' }] },
          },
        ],
        [9, finished],
      ),
      10,
    );
    expect(layout.lanes.map((lane) => [lane.name, lane.untrusted])).toEqual([
      ['model turn 1', undefined],
      ['read_page', undefined],
      ['model turn 2', ['read_page']],
      ['share_note', ['read_page']],
      ['model turn 3', ['read_page']],
    ]);
  });

  it('draws the approval wait as its own segment, and a denial as denied', () => {
    const layout = layoutTimeline(
      at(
        [0, started],
        [5, { type: 'tool_call', call: call('d', 'delete_note', { id: 'n1' }) }],
        [6, { type: 'approval_requested', call: call('d', 'delete_note', { id: 'n1' }) }],
        [50, { type: 'approval_resolved', callId: 'd', approved: true }],
        [51, { type: 'tool_started', callId: 'd', name: 'delete_note', attempt: 1 }],
        [55, { type: 'tool_finished', result: ok('d', 'delete_note') }],
        [56, { type: 'tool_call', call: call('e', 'delete_note') }],
        [57, { type: 'approval_requested', call: call('e', 'delete_note') }],
        [70, { type: 'approval_resolved', callId: 'e', approved: false }],
        [70, { type: 'tool_finished', result: failed('e', 'delete_note', 'denied', 0) }],
      ),
      80,
    );
    const [, approved, denied] = layout.lanes;
    expect(approved!.segments.map((s) => [s.kind, s.start, s.end])).toEqual([
      ['queued', 5, 6],
      ['approval', 6, 50],
      ['attempt', 51, 55],
    ]);
    expect(approved).toMatchObject({ approved: true, status: 'done' });
    expect(denied).toMatchObject({ approved: false, status: 'denied' });
    expect(laneStatusText(denied!)).toBe('denied');
  });

  it('shows each attempt of a retried call as a segment, the pauses between them, and marks the timeouts', () => {
    const layout = layoutTimeline(
      at(
        [0, started],
        [1, { type: 'tool_call', call: call('c', 'csv_stats') }],
        [2, { type: 'tool_started', callId: 'c', name: 'csv_stats', attempt: 1 }],
        [20, { type: 'tool_retry', callId: 'c', name: 'csv_stats', attempt: 1, nextAttempt: 2, delayMs: 5 }],
        [25, { type: 'tool_started', callId: 'c', name: 'csv_stats', attempt: 2 }],
        [45, { type: 'tool_finished', result: failed('c', 'csv_stats', 'timeout', 2) }],
      ),
      50,
    );
    const lane = layout.lanes[1]!;
    expect(lane.segments.map((s) => [s.kind, s.start, s.end, s.attempt])).toEqual([
      ['queued', 1, 2, undefined],
      ['attempt', 2, 20, 1],
      ['backoff', 20, 25, undefined],
      ['attempt', 25, 45, 2],
    ]);
    expect(lane.marks).toEqual([
      { kind: 'timeout', at: 20, code: 'timeout' },
      { kind: 'timeout', at: 45, code: 'timeout' },
    ]);
    expect(laneStatusText(lane)).toBe('failed: timeout');
  });

  it('marks a failed call with its code', () => {
    const layout = layoutTimeline(
      at(
        [0, started],
        [1, { type: 'tool_call', call: call('x', 'add_note') }],
        [2, { type: 'tool_started', callId: 'x', name: 'add_note', attempt: 1 }],
        [3, { type: 'tool_finished', result: failed('x', 'add_note', 'tool_error') }],
      ),
      10,
    );
    expect(layout.lanes[1]).toMatchObject({ status: 'failed', marks: [{ kind: 'failure', at: 3, code: 'tool_error' }] });
  });

  it("nests a leaf's turns and calls under its spawn_leaf call", () => {
    const leaf = 'leaf-1';
    const layout = layoutTimeline(
      at(
        [0, started],
        [1, { type: 'tool_call', call: call('s', 'spawn_leaf', { task: 't' }) }],
        [2, { type: 'tool_started', callId: 's', name: 'spawn_leaf', attempt: 1 }],
        [3, { type: 'tool_call', call: call('other', 'search_notes') }],
        [4, { ...started, runId: leaf, leafId: leaf }],
        [5, { type: 'tool_call', call: call('l1', 'search_notes'), leafId: leaf }],
        [6, { type: 'tool_started', callId: 'l1', name: 'search_notes', attempt: 1, leafId: leaf }],
        [7, { type: 'tool_finished', result: ok('l1', 'search_notes'), leafId: leaf }],
        [8, { type: 'iteration_finished', iteration: 1, finishReason: 'tool_calls', toolCalls: 1, leafId: leaf }],
        [9, { type: 'text_delta', text: 'summary', leafId: leaf }],
        [10, { type: 'iteration_finished', iteration: 2, finishReason: 'stop', toolCalls: 0, leafId: leaf }],
        [10, { ...finished, leafId: leaf }],
        [11, { type: 'tool_finished', result: ok('s', 'spawn_leaf', 'summary') }],
      ),
      20,
    );
    expect(layout.lanes.map((lane) => [lane.name, lane.depth, lane.parentCallId])).toEqual([
      ['model turn 1', 0, undefined],
      ['spawn_leaf', 0, undefined],
      ['model turn 1', 1, 's'],
      ['search_notes', 1, 's'],
      ['model turn 2', 1, 's'],
      ['search_notes', 0, undefined],
    ]);
    expect(layout.lanes[3]).toMatchObject({ id: 'l1', leafId: leaf, status: 'done' });
  });

  it('gives two leaves running at once to the spawn_leaf calls in the order they started', () => {
    const layout = layoutTimeline(
      at(
        [0, started],
        [1, { type: 'tool_started', callId: 's1', name: 'spawn_leaf', attempt: 1 }],
        [1, { type: 'tool_started', callId: 's2', name: 'spawn_leaf', attempt: 1 }],
        [2, { ...started, runId: 'L1', leafId: 'L1' }],
        [2, { ...started, runId: 'L2', leafId: 'L2' }],
        [3, { type: 'tool_started', callId: 'b', name: 'echo', attempt: 1, leafId: 'L2' }],
        [3, { type: 'tool_started', callId: 'a', name: 'echo', attempt: 1, leafId: 'L1' }],
      ),
      5,
    );
    expect(layout.lanes.filter((lane) => lane.kind === 'call').map((lane) => [lane.id, lane.parentCallId])).toEqual([
      ['s1', undefined],
      ['a', 's1'],
      ['s2', undefined],
      ['b', 's2'],
    ]);
  });

  it('never nests a leaf under a spawn_leaf call that ended without one', () => {
    const layout = layoutTimeline(
      at(
        [0, started],
        [1, { type: 'tool_started', callId: 'broken', name: 'spawn_leaf', attempt: 1 }],
        [2, { type: 'tool_finished', result: failed('broken', 'spawn_leaf', 'storage_error') }],
        [3, { type: 'tool_started', callId: 'good', name: 'spawn_leaf', attempt: 1 }],
        [4, { ...started, runId: 'L', leafId: 'L' }],
        [5, { type: 'tool_started', callId: 'inner', name: 'search_notes', attempt: 1, leafId: 'L' }],
      ),
      9,
    );
    expect(layout.lanes.find((lane) => lane.id === 'inner')).toMatchObject({ parentCallId: 'good', depth: 1 });
  });

  it('while a run goes on, open segments reach now; when it fails, unfinished calls end marked', () => {
    const events = at(
      [0, started],
      [1, { type: 'tool_call', call: call('a', 'highlight') }],
      [2, { type: 'tool_started', callId: 'a', name: 'highlight', attempt: 1 }],
    );
    const live = layoutTimeline(events, 30);
    expect(live).toMatchObject({ status: 'running', end: 30 });
    expect(live.lanes[1]!.segments.at(-1)).toEqual({ kind: 'attempt', start: 2, end: undefined, attempt: 1 });
    expect(laneStatusText(live.lanes[1]!)).toBe('running');

    const ended = layoutTimeline([...events, { at: 40, event: { type: 'run_failed', error: { code: 'aborted', message: 'Stopped' } } as RunEvent }], 99);
    expect(ended).toMatchObject({ status: 'failed', failure: 'aborted', end: 40 });
    expect(ended.lanes[1]).toMatchObject({ status: 'failed', end: 40, marks: [{ kind: 'failure', code: 'aborted' }] });
    expect(ended.lanes[1]!.segments.at(-1)!.end).toBe(40);
  });

  it('keeps one lane per call id, whatever the order or repetition of its events', () => {
    const layout = layoutTimeline(
      at(
        [0, started],
        [1, { type: 'tool_finished', result: ok('z', 'echo') }], // finished, never seen proposed
        [2, { type: 'tool_finished', result: ok('z', 'echo') }],
        [3, { type: 'approval_resolved', callId: 'nobody', approved: true }],
      ),
      5,
    );
    expect(layout.lanes.filter((lane) => lane.kind === 'call').map((lane) => lane.id)).toEqual(['z']);
  });

  it('lays out 50 calls as 50 lanes with no event lost', () => {
    const events: StampedEvent[] = [{ at: 0, event: started }];
    for (let i = 0; i < 50; i++) {
      events.push({ at: i, event: { type: 'tool_call', call: call(`c${i}`, 'search_notes', { query: String(i) }) } });
      events.push({ at: i + 1, event: { type: 'tool_started', callId: `c${i}`, name: 'search_notes', attempt: 1 } });
      events.push({ at: i + 2, event: { type: 'tool_finished', result: ok(`c${i}`, 'search_notes') } });
    }
    const layout = layoutTimeline(events, 100);
    const lanes = layout.lanes.filter((lane) => lane.kind === 'call');
    expect(lanes).toHaveLength(50);
    expect(lanes.every((lane, i) => lane.status === 'done' && lane.arguments && (lane.arguments as { query: string }).query === String(i))).toBe(true);
  });

  it('has nothing to show before a run', () => {
    expect(layoutTimeline([], 7)).toEqual({ start: 7, end: 7, lanes: [], status: 'idle' });
  });
});
