// How promptApiEngine asks the built-in model: the response constraint it compiles from the
// tools and the answer schema, the messages it opens a session with, and its options.
import { describe, expect, it } from 'vitest';
import { promptApiEngine, type ToolDefinition } from '../../src/index.js';
import type { EngineRequest } from '../../src/engines/types.js';
import { promptMessages } from '../../src/engines/prompt-api/prompt-messages.js';
import { readReply, replyShape } from '../../src/engines/prompt-api/reply-shape.js';

const tool = (name: string, parameters: Record<string, unknown> = { type: 'object' }): ToolDefinition => ({
  name,
  description: `${name} it`,
  parameters: parameters as ToolDefinition['parameters'],
});
const request = (tools: ToolDefinition[], more: Partial<EngineRequest> = {}): EngineRequest => ({ messages: [], tools, ...more });

describe('the response constraint', () => {
  it("is a union of each tool's call shape and a free answer; the instructions name the tools", () => {
    const shape = replyShape(request([tool('a'), tool('b', { type: 'object', properties: { n: { type: 'number' } } })]), 4)!;
    expect(shape.schema).toEqual({
      anyOf: [
        {
          type: 'object',
          properties: {
            calls: {
              type: 'array',
              minItems: 1,
              maxItems: 4,
              items: {
                anyOf: [
                  {
                    type: 'object',
                    properties: { name: { type: 'string', enum: ['a'] }, arguments: { type: 'object' } },
                    required: ['name', 'arguments'],
                    additionalProperties: false,
                  },
                  {
                    type: 'object',
                    properties: { name: { type: 'string', enum: ['b'] }, arguments: { type: 'object', properties: { n: { type: 'number' } } } },
                    required: ['name', 'arguments'],
                    additionalProperties: false,
                  },
                ],
              },
            },
          },
          required: ['calls'],
          additionalProperties: false,
        },
        { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'], additionalProperties: false },
      ],
    });
    expect(shape.instructions).toContain('- a: a it\n- b: b it');
  });

  it('holds only the calls when a call is required, only the named tool for { name }, and nothing for none', () => {
    expect(replyShape(request([tool('a')], { toolChoice: 'required' }), 2)!.schema).not.toHaveProperty('anyOf');
    const named = replyShape(request([tool('a'), tool('b')], { toolChoice: { name: 'b' } }), 2)!;
    expect(JSON.stringify(named.schema)).not.toContain('"enum":["a"]');
    expect(replyShape(request([tool('a')], { toolChoice: 'none' }), 2)).toBeUndefined();
    expect(replyShape(request([]), 2)).toBeUndefined();
  });

  it('moves a schema that refers to its own parts to $defs, its references rewritten to point there', () => {
    const tree = {
      type: 'object',
      properties: { node: { $ref: '#/$defs/node' } },
      $defs: { node: { type: 'object', properties: { kids: { type: 'array', items: { $ref: '#/$defs/node' } } } } },
    };
    const shape = replyShape(request([tool('walk', tree)]), 2)!;
    const schema = shape.schema as { $defs: Record<string, any>; anyOf: any[] };
    expect(schema.anyOf[0].properties.calls.items.properties.arguments).toEqual({ $ref: '#/$defs/tool0' });
    expect(schema.$defs.tool0.properties.node).toEqual({ $ref: '#/$defs/tool0/$defs/node' });
    expect(schema.$defs.tool0.$defs.node.properties.kids.items).toEqual({ $ref: '#/$defs/tool0/$defs/node' });
  });

  it('keeps a property named __proto__ in a schema as data', () => {
    const parameters = JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"},"x":{"$ref":"#/properties/__proto__"}}}');
    const shape = replyShape(request([tool('odd', parameters)]), 2)!;
    const moved = (shape.schema as { $defs: Record<string, any> }).$defs.tool0;
    expect(Object.hasOwn(moved.properties, '__proto__')).toBe(true);
    expect(moved.properties.x).toEqual({ $ref: '#/$defs/tool0/properties/__proto__' });
    expect(({} as Record<string, unknown>).type).toBeUndefined();
  });

  it('reads calls and answers, and nothing from a reply that is not the shape', () => {
    const shape = replyShape(request([tool('a')]), 2)!;
    expect(readReply('{"calls":[{"name":"a","arguments":{"x":1}}]}', shape)).toEqual({ text: '', calls: [{ name: 'a', arguments: { x: 1 } }] });
    expect(readReply('{"answer":"Done."}', shape)).toEqual({ text: 'Done.', calls: [] });
    expect(readReply('{"calls":[{"name":"a"', shape)).toBeUndefined();
    expect(readReply('[1,2]', shape)).toBeUndefined();
    expect(readReply('{"calls":[{"nom":"a"},{"name":"a"}]}', shape)).toEqual({ text: '', calls: [{ name: 'a', arguments: {} }] });
  });
});

describe('the session and the prompt', () => {
  it('opens with the system prompt and the conversation up to the last reply; the prompt is what came after it', () => {
    const { initialPrompts, input } = promptMessages(
      [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Note milk' },
        { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'add_note', arguments: { text: 'milk' } }] },
        { role: 'tool', toolCallId: 'c1', name: 'add_note', content: '{"ok":true,"output":"added"}' },
      ],
      'You can call tools.',
    );
    expect(initialPrompts).toEqual([
      { role: 'system', content: 'Be brief.\n\nYou can call tools.' },
      { role: 'user', content: 'Note milk' },
      { role: 'assistant', content: '{"calls":[{"name":"add_note","arguments":{"text":"milk"}}]}' },
    ]);
    expect(input).toEqual([{ role: 'user', content: 'Result of add_note (call c1): {"ok":true,"output":"added"}' }]);
  });
});

describe('promptApiEngine', () => {
  it('fills its defaults and refuses what could not work, coded', () => {
    expect(promptApiEngine()).toEqual({ kind: 'prompt-api', languages: ['en'], maxCallsPerReply: 8 });
    for (const bad of [{ languages: [] }, { languages: [''] }, { temperature: -1 }, { topK: 0.5 }, { maxCallsPerReply: 0 }]) {
      expect(() => promptApiEngine(bad as never), JSON.stringify(bad)).toThrow(expect.objectContaining({ code: 'invalid_engine_config' }));
    }
  });
});
