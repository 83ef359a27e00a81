// Run events as they cross from the runner worker to the page (event-codec.ts): the three events
// every call sends pack into short arrays and unpack to the same events; any event with a field
// beyond the usual ones (a leaf's, an untrusted call's, a failure, an edited call) crosses as it
// is; a page tool's output the run took unchanged is not sent back, in its tool_finished nor in
// the run's result, and the page's own answer takes its place; a shared runner's page keeps none;
// a run's long answer crosses once, not also as its last message.
import { describe, expect, it } from 'vitest';
import type { RunEvent, RunResult } from '../../src/index.js';
import { EventPacker, EventUnpacker, type WireEvent } from '../../src/worker/wire/event-codec.js';

/** Both ends of one page link (`keeps`: a dedicated runner's), and what crossed, cloned as postMessage clones. */
function link(keeps = true) {
  const packer = new EventPacker(keeps);
  const unpacker = new EventUnpacker(keeps);
  const wires: WireEvent[] = [];
  return {
    answered(callId: string, output: unknown) {
      packer.answered(callId, output);
      unpacker.answered(callId, output);
    },
    cross(event: RunEvent, runId = 'r1'): RunEvent {
      const wire = packer.pack(runId, event)!;
      wires.push(wire);
      return unpacker.unpack(runId, structuredClone(wire));
    },
    end(runId = 'r1') {
      packer.pack(runId, null);
      unpacker.end(runId);
    },
    wires,
  };
}

const call = { id: 'call_1', name: 'ping', arguments: { q: 'x' }, idempotencyKey: 'key_1' };
const success = { id: 'call_1', name: 'ping', ok: true as const, output: { rows: [1, 2] }, attempts: 1, durationMs: 3.5 };
const finished = (event: RunEvent) => (event as Extract<RunEvent, { type: 'tool_finished' }>).result;
const big = () => ({ rows: Array.from({ length: 1000 }, (_, i) => ({ i, text: 'row'.repeat(10) })) });

describe('run events crossing packed', () => {
  it('pack the usual tool_call, tool_started and tool_finished into arrays that unpack to the same events', () => {
    const { cross, wires } = link();
    const events: RunEvent[] = [
      { type: 'tool_call', call },
      { type: 'tool_started', callId: 'call_1', name: 'ping', attempt: 2 },
      { type: 'tool_finished', result: success },
    ];
    for (const event of events) expect(cross(event)).toEqual(event);
    expect(wires.every((wire) => Array.isArray(wire))).toBe(true);
  });

  it('send any other event, or one with a field beyond the usual ones, as it is', () => {
    const { cross, wires } = link();
    const events = [
      { type: 'run_started', runId: 'r', input: 'hi' },
      { type: 'tool_call', call, leafId: 'leaf-1' },
      { type: 'tool_call', call: { ...call, target: { tabId: 3, frameId: 0, documentId: 'd', url: 'https://a.example/' } } },
      { type: 'tool_call', call: { ...call, provider: { thought: 'sig' } } },
      { type: 'tool_call', call, untrusted: { sources: [{ name: 'read_page', callId: 'c0' }] } },
      { type: 'tool_call', call: { id: 'call_2', name: 'ping', arguments: {} } },
      { type: 'tool_started', callId: 'call_1', name: 'ping', attempt: 1, parentCallId: 'run_code_1' },
      { type: 'tool_finished', result: { ...success, untrusted: true } },
      { type: 'tool_finished', result: { ...success, editedArguments: { q: 'y' } } },
      { type: 'tool_finished', result: { id: 'call_1', name: 'ping', ok: false, error: { code: 'timeout', message: 'late' }, attempts: 3, durationMs: 9 } },
    ] as RunEvent[];
    for (const event of events) expect(cross(event)).toEqual(event);
    expect(wires.some((wire) => Array.isArray(wire))).toBe(false);
  });

  it('keep hostile names and values as data: `__proto__` arguments and names', () => {
    const { cross } = link();
    const args = JSON.parse('{"__proto__": {"polluted": true}, "constructor": "x"}');
    const event: RunEvent = { type: 'tool_call', call: { id: '3', name: '__proto__', arguments: args, idempotencyKey: 'k' } };
    const back = cross(event) as Extract<RunEvent, { type: 'tool_call' }>;
    expect(back).toEqual(event);
    expect(Object.keys(back.call.arguments as object)).toEqual(['__proto__', 'constructor']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("leave a page tool's unchanged output on the page, in tool_finished and in the run's result: its own answer takes its place", () => {
    const { answered, cross, end, wires } = link();
    const output = big();
    answered('call_1', output);
    const back = finished(cross({ type: 'tool_finished', result: { ...success, output } }));
    expect(back).toEqual({ ...success, output });
    expect(back.ok && back.output).toBe(output);
    const result = { runId: 'r1', text: 'done', messages: [], iterations: 2, toolResults: [{ ...success, output }] } as RunResult;
    const last = cross({ type: 'run_finished', result }) as Extract<RunEvent, { type: 'run_finished' }>;
    expect(last.result).toEqual(result);
    expect(last.result.toolResults[0]!.ok && (last.result.toolResults[0] as typeof success).output).toBe(output);
    // Neither crossing carried the output.
    expect(wires.map((wire) => JSON.stringify(wire).length).every((length) => length < 300)).toBe(true);
    end();
  });

  it('send an output the run changed, or one this page did not answer, whole', () => {
    const { answered, cross, wires } = link();
    answered('call_1', { rows: [1, 2] });
    const changed: RunEvent = { type: 'tool_finished', result: { ...success, output: { rows: [1, 2] } } };
    expect(cross(changed)).toEqual(changed);
    expect(JSON.stringify(wires[0])).toContain('"rows"');
    const other: RunEvent = { type: 'tool_finished', result: { ...success, id: 'call_9' } };
    expect(cross(other)).toEqual(other);
  });

  it("in a shared runner's link keep nothing and send every output whole", () => {
    const { answered, cross, wires } = link(false);
    const output = big();
    answered('call_1', output);
    expect(finished(cross({ type: 'tool_finished', result: { ...success, output } }))).toEqual({ ...success, output });
    expect(JSON.stringify(wires[0]).length).toBeGreaterThan(10_000);
  });

  it('forget what a run kept once its events end', () => {
    const { answered, cross, end } = link();
    const output = big();
    answered('call_1', output);
    cross({ type: 'tool_finished', result: { ...success, output } });
    end();
    // The run is over: its result (were one to come again) carries the output whole.
    const result = { runId: 'r1', text: '', messages: [], iterations: 1, toolResults: [{ ...success, output }] } as RunResult;
    const again = cross({ type: 'run_finished', result }) as Extract<RunEvent, { type: 'run_finished' }>;
    expect(again.result).toEqual(result);
  });

  it("send a run's long answer once, not also as its last message's content", () => {
    for (const keeps of [true, false]) {
      const { cross, wires } = link(keeps);
      const text = 'word '.repeat(40_000);
      const result = {
        runId: 'r1',
        text,
        messages: [
          { role: 'user', content: 'write' },
          { role: 'assistant', content: text },
        ],
        iterations: 1,
        toolResults: [],
      } as RunResult;
      expect(cross({ type: 'run_finished', result })).toEqual({ type: 'run_finished', result });
      expect(JSON.stringify(wires[0]).length).toBeLessThan(text.length * 1.1);
      const short = { ...result, text: 'Done.', messages: [{ role: 'assistant', content: 'Done.' }] } as RunResult;
      expect(cross({ type: 'run_finished', result: short })).toEqual({ type: 'run_finished', result: short });
    }
  });
});
