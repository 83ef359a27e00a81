import { describe, expect, it } from 'vitest';
import { isAmbiError } from '../../src/errors/ambi-error.js';
import { EngineHttpError } from '../../src/errors/engine-http-error.js';
import { createEngine } from '../../src/engines/create-engine.js';
import { scriptedEngine } from '../../src/engines/scripted/scripted.js';
import type { EngineConfig } from '../../src/engines/config.js';
import { callsOf, collect, rejection, request, textOf } from './engine-test-helpers.js';

describe('scriptedEngine', () => {
  it('is plain data that survives structured cloning', () => {
    const config = scriptedEngine(['hi', { toolCalls: [{ name: 'add', arguments: { a: 1 } }], delayMs: 5 }]);
    expect(config.kind).toBe('scripted');
    expect(structuredClone(config)).toEqual(config);
  });

  it('serves its replies in order across every request made to one engine', async () => {
    const engine = createEngine(scriptedEngine(['first', 'second', 'third']));
    expect(textOf(await collect(engine))).toBe('first');
    expect(textOf(await collect(engine))).toBe('second');
    expect(textOf(await collect(engine))).toBe('third');
  });

  it('streams a string reply in several text pieces, then finishes with stop', async () => {
    const reply = 'A tagged call: [TOOL_CALL]{"name":"add","args":{"a":1}}[/TOOL_CALL]';
    const events = await collect(createEngine(scriptedEngine([reply])));
    expect(events.filter((e) => e.type === 'text').length).toBeGreaterThan(1);
    expect(textOf(events)).toBe(reply);
    expect(events.at(-1)).toEqual({ type: 'finish', reason: 'stop' });
  });

  it('reports native tool calls, filling missing ids, and finishes with tool_calls', async () => {
    const engine = createEngine(
      scriptedEngine([
        {
          text: 'Calling.',
          toolCalls: [
            { id: 'fixed', name: 'add', arguments: { a: 1, b: 2 } },
            { name: 'now', arguments: {} },
          ],
        },
      ]),
    );
    expect(engine.nativeTools).toBe(true);
    const events = await collect(engine);
    const [first, second] = callsOf(events);
    expect(textOf(events)).toBe('Calling.');
    expect(first).toEqual({ id: 'fixed', name: 'add', arguments: { a: 1, b: 2 } });
    expect(second).toMatchObject({ name: 'now', arguments: {} });
    expect(second!.id).toMatch(/^call_/);
    expect(events.at(-1)).toEqual({ type: 'finish', reason: 'tool_calls' });
  });

  it('fails an error reply with the HTTP error class, its status and message, then moves on', async () => {
    const engine = createEngine(scriptedEngine([{ error: { status: 503, message: 'overloaded' } }, 'after']));
    const error = await rejection(collect(engine));
    expect(error).toBeInstanceOf(EngineHttpError);
    expect(isAmbiError(error, 'http_error')).toBe(true);
    expect(error.status).toBe(503);
    expect(error.message).toContain('overloaded');
    expect(textOf(await collect(engine))).toBe('after');
  });

  it('waits delayMs before replying, and an abort during the wait rejects with aborted', async () => {
    const engine = createEngine(scriptedEngine([{ text: 'late', delayMs: 10_000 }]));
    const controller = new AbortController();
    const pending = rejection(collect(engine, request({ signal: controller.signal })));
    setTimeout(() => controller.abort('stop'), 10);
    const error = await pending;
    expect(error.code).toBe('aborted');
    expect(error.cause).toBe('stop');
  });

  it('replies after a short delay when not aborted', async () => {
    expect(textOf(await collect(createEngine(scriptedEngine([{ text: 'soon', delayMs: 5 }]))))).toBe('soon');
  });

  it('rejects with script_exhausted, naming the script length, when replies run out', async () => {
    const engine = createEngine(scriptedEngine(['only', 'two']));
    await collect(engine);
    await collect(engine);
    const error = await rejection(collect(engine));
    expect(error.code).toBe('script_exhausted');
    expect(error.message).toContain('2 replies');
  });

  it('createEngine rejects an unknown kind', () => {
    expect(() => createEngine({ kind: 'local' } as unknown as EngineConfig)).toThrow(expect.objectContaining({ code: 'invalid_engine_config' }));
  });
});
