import { describe, expect, test } from 'vitest';
import { inspectGguf } from '../../src/engines/local/gguf.js';
import { CHATML_TEMPLATE, chooseTemplate, templateMessages } from '../../src/engines/local/template.js';
import { isAmbiError, localModel, type EngineConfig, type Message } from '../../src/index.js';
import { createEngine, type LocalEngine } from '../../src/extend/index.js';
import { tinyGguf } from '../support/tiny-gguf.js';

describe('localModel config', () => {
  test('is plain data with defaults filled, and survives structured cloning with a Blob source', () => {
    const blob = new Blob([tinyGguf()]);
    const config = localModel({ source: blob, contextSize: 512 });
    expect(config).toMatchObject({ kind: 'local', contextSize: 512, cache: true });
    const copy = structuredClone(config);
    expect(copy.source).toBeInstanceOf(Blob);
    expect((copy.source as Blob).size).toBe(blob.size);
    expect(localModel({ source: 'https://example.test/m.gguf' }).source).toBe('https://example.test/m.gguf');
  });

  test('rejects what cannot work with invalid_engine_config', () => {
    const bad = [
      { source: '' },
      { source: 42 as unknown as string },
      { source: 'm.gguf', contextSize: 0 },
      { source: 'm.gguf', threads: 1.5 },
      { source: 'm.gguf', maxTokens: -1 },
      { source: 'm.gguf', temperature: -0.1 },
      { source: 'm.gguf', template: ' ' },
      // The grammar's tags are the agent parser's now: an old config's own tags would be ignored.
      { source: 'm.gguf', toolTags: { open: '<x>', close: '</x>' } } as never,
    ];
    for (const options of bad) {
      expect(() => localModel(options), JSON.stringify(options)).toThrow(/localModel/);
      try {
        localModel(options);
      } catch (error) {
        expect(isAmbiError(error, 'invalid_engine_config')).toBe(true);
      }
    }
  });
});

describe('createEngine with a local config', () => {
  test('builds the engine without loading anything: calls travel as tagged text', () => {
    const engine = createEngine(localModel({ source: 'https://example.test/m.gguf' }));
    expect(engine.nativeTools).toBe(false);
    expect((engine as { model?: unknown }).model).toBeUndefined();
  });

  test('frees nothing and loads nothing when unloaded before any use', async () => {
    const engine = createEngine(localModel({ source: 'https://example.test/m.gguf' })) as LocalEngine;
    await expect(engine.unload()).resolves.toBeUndefined();
    expect(engine.model).toBeUndefined();
  });

  test("streams through the local engine's code once it is loaded: an aborted request fails as it does there", async () => {
    const engine = createEngine(localModel({ source: 'https://example.test/m.gguf' }));
    const events = engine.stream({ messages: [], tools: [], signal: AbortSignal.abort('stop') })[Symbol.asyncIterator]();
    const error = await events.next().catch((e: unknown) => e);
    expect(isAmbiError(error, 'aborted')).toBe(true);
  });

  test('checks a hand-written config again, in the realm that runs it', () => {
    expect(() => createEngine({ kind: 'local' } as unknown as EngineConfig)).toThrow(expect.objectContaining({ code: 'invalid_engine_config' }));
    expect(() => createEngine({ kind: 'local', source: 'm.gguf' } as EngineConfig)).not.toThrow();
  });
});

describe('chat template choice', () => {
  test("the model's own template when it has one, ChatML when it has none, the option over both", async () => {
    const withTemplate = await inspectGguf(new Blob([tinyGguf()]));
    const without = await inspectGguf(new Blob([tinyGguf({ chatTemplate: null })]));
    expect(chooseTemplate(undefined, withTemplate)).toEqual({ template: undefined, source: 'model' });
    expect(chooseTemplate(undefined, without)).toEqual({ template: CHATML_TEMPLATE, source: 'default' });
    expect(chooseTemplate('{{ messages[0].content }}', withTemplate)).toEqual({ template: '{{ messages[0].content }}', source: 'option' });
    expect(chooseTemplate('chatml', withTemplate)).toEqual({ template: CHATML_TEMPLATE, source: 'option' });
  });

  test('messages reach the template in roles every template knows, one role at a time', () => {
    const messages: Message[] = [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Add 2 and 3.' },
      {
        role: 'assistant',
        content: '[TOOL_CALL]{"name":"add","args":{"a":2,"b":3}}[/TOOL_CALL]',
        toolCalls: [{ id: 'c1', name: 'add', arguments: { a: 2, b: 3 } }],
      },
      { role: 'tool', toolCallId: 'c1', name: 'add', content: '{"ok":true,"output":5}' },
      { role: 'user', origin: 'runtime', content: 'A note from the runtime.' },
    ];
    expect(templateMessages(messages)).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Add 2 and 3.' },
      { role: 'assistant', content: '[TOOL_CALL]{"name":"add","args":{"a":2,"b":3}}[/TOOL_CALL]' },
      { role: 'user', content: '[runtime] Result of tool call c1 (add): {"ok":true,"output":5}\n\n[runtime] A note from the runtime.' },
    ]);
  });
});
