// What a run reads and writes once rather than on every turn: the tool prompt of a tag-calling
// agent (written once per set of tools, and again when the set changes), and a stored
// conversation (shared frozen by the memory store, never copied for the run, never changeable).
import { describe, expect, it } from 'vitest';
import { Agent, ChatRunner, defineTool, MemoryConversationStore, type Engine, type Message } from '../../src/index.js';
import type { EngineRequest } from '../../src/extend/index.js';
import { TagToolCallParser } from '../../src/parser/tag-parser.js';
import type { ToolDefinition } from '../../src/core/types.js';

const tool = (name: string) =>
  defineTool({ name, description: `The ${name} tool`, parameters: { type: 'object', properties: {} }, idempotent: true, call: () => name });

/** A tag-calling model that answers at once and keeps every request's system prompt. */
function recordingEngine(prompts: string[]): Engine {
  return {
    nativeTools: false,
    async *stream(request: EngineRequest) {
      prompts.push(request.messages[0]?.role === 'system' ? request.messages[0].content : '');
      yield { type: 'text', text: 'Done.' };
      yield { type: 'finish', reason: 'stop' };
    },
  };
}

describe('the tool prompt of a tag-calling agent', () => {
  it('follows the set of tools: a tool registered between runs is taught in the next one, one removed is not', async () => {
    const prompts: string[] = [];
    const agent = (await Agent.make(recordingEngine(prompts))).tool(tool('first'));
    const runner = new ChatRunner();
    await runner.run(agent, 'one').result;
    agent.tool(tool('second'));
    await runner.run(agent, 'two').result;
    agent.registry.unregister('first');
    await runner.run(agent, 'three').result;
    expect(prompts.map((p) => [p.includes('### first'), p.includes('### second')])).toEqual([
      [true, false],
      [true, true],
      [false, true],
    ]);
  });

  it('is written again for a list of tools that is not frozen, which may have changed since', () => {
    const parser = new TagToolCallParser();
    const list: ToolDefinition[] = [{ name: 'first', description: 'First', parameters: { type: 'object' } }];
    expect(parser.instructions(list)).not.toContain('### second');
    list.push({ name: 'second', description: 'Second', parameters: { type: 'object' } });
    expect(parser.instructions(list)).toContain('### second');
  });

  it('is the same text for the same frozen list, whichever agent shares the parser', async () => {
    const parser = new TagToolCallParser();
    const a = (await Agent.make(recordingEngine([]), { parser })).tool(tool('alpha'));
    const b = (await Agent.make(recordingEngine([]), { parser })).tool(tool('beta'));
    const forA = parser.instructions(a.registry.definitions());
    expect(parser.instructions(b.registry.definitions())).toContain('### beta');
    expect(parser.instructions(a.registry.definitions())).toBe(forA);
    expect(forA).not.toContain('### beta');
  });
});

describe('a stored conversation read by a run', () => {
  const history: Message[] = [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: 'Hi' },
    { role: 'assistant', content: 'Hello.' },
  ];

  it('loadFrozen shares the stored messages frozen: changing one is refused and the store keeps its own', async () => {
    const store = new MemoryConversationStore();
    await store.append('c', history);
    const shared = await store.loadFrozen('c');
    expect(shared).toEqual(history);
    expect(Object.isFrozen(shared[1])).toBe(true);
    expect(() => {
      (shared[1] as { content: string }).content = 'changed';
    }).toThrow(TypeError);
    expect(await store.load('c')).toEqual(history);
    // The list itself is the reader's own.
    (shared as Message[]).pop();
    expect(await store.loadFrozen('c')).toHaveLength(3);
  });

  it('load still gives copies a caller may change, without changing the store', async () => {
    const store = new MemoryConversationStore();
    await store.append('c', history);
    const copy = await store.load('c');
    (copy[1] as { content: string }).content = 'changed';
    expect(await store.loadFrozen('c')).toEqual(history);
  });

  it('what was appended is copied: changing the caller’s messages afterwards changes nothing stored', async () => {
    const store = new MemoryConversationStore();
    const mine = structuredClone(history);
    await store.append('c', mine);
    mine[1]!.content = 'changed';
    expect(await store.loadFrozen('c')).toEqual(history);
  });

  it('a run without a context budget sends the stored conversation as it is, and its result cannot change the store', async () => {
    const store = new MemoryConversationStore();
    await store.append('c', history);
    const sent: Array<readonly Message[]> = [];
    const engine: Engine = {
      nativeTools: true,
      async *stream(request) {
        sent.push(request.messages);
        yield { type: 'text', text: 'Fine.' };
        yield { type: 'finish', reason: 'stop' };
      },
    };
    const agent = await Agent.make(engine, { conversations: store });
    const result = await new ChatRunner().run(agent, 'And you?', { conversation: 'c' }).result;
    expect(sent[0]).toEqual([...history, { role: 'user', content: 'And you?' }]);
    expect(() => {
      (result.messages[1] as { content: string }).content = 'changed';
    }).toThrow(TypeError);
    expect(await store.load('c')).toEqual([...history, { role: 'user', content: 'And you?' }, { role: 'assistant', content: 'Fine.' }]);
  });
});
