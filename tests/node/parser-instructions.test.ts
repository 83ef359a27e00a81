import { describe, expect, it } from 'vitest';
import { TagToolCallParser } from '../../src/parser/tag-parser.js';
import type { ToolDefinition } from '../../src/core/types.js';

const weather: ToolDefinition = {
  name: 'get_weather',
  description: 'Current weather for a city.',
  parameters: {
    type: 'object',
    properties: { city: { type: 'string' }, unit: { enum: ['C', 'F'] }, days: { type: 'integer' } },
    required: ['city', 'unit'],
  },
};
const clock: ToolDefinition = { name: 'now', description: 'The current time.', parameters: { type: 'object', properties: {} } };

describe('TagToolCallParser.instructions', () => {
  it('lists each tool with its name, description and parameter schema', () => {
    const text = new TagToolCallParser().instructions([weather, clock]);
    for (const tool of [weather, clock]) {
      expect(text).toContain(tool.name);
      expect(text).toContain(tool.description);
      expect(text).toContain(JSON.stringify(tool.parameters));
    }
  });

  it("teaches the parser's own tags", () => {
    const text = TagToolCallParser.hermes().instructions([weather]);
    expect(text).toContain('<tool_call>{"name": "tool_name", "args": {"parameter": "value"}}</tool_call>');
    expect(text).not.toContain('[TOOL_CALL]');
  });

  it('gives examples that the same parser reads back as calls', () => {
    const p = new TagToolCallParser({ open: '<<call>>', close: '<</call>>' });
    const result = p.parse(p.instructions([weather, clock]));
    expect(result.errors).toEqual([]);
    expect(result.calls.map(({ name, arguments: args }) => ({ name, args }))).toEqual([
      { name: 'tool_name', args: { parameter: 'value' } },
      { name: 'get_weather', args: { city: 'value', unit: 'C' } },
      { name: 'get_weather', args: { city: 'value', unit: 'C' } },
      { name: 'now', args: {} },
    ]);
  });

  it('says several calls are several blocks or one array, and that nothing else goes inside the tags', () => {
    const text = new TagToolCallParser().instructions([weather]);
    expect(text).toContain('several blocks, or one block holding a JSON array');
    expect(text).toContain('Put nothing else inside the tags');
  });

  it('says no tools are available when given none', () => {
    const text = new TagToolCallParser().instructions([]);
    expect(text).toContain('No tools are available');
    expect(new TagToolCallParser().parse(text)).toEqual({ text, calls: [], errors: [] });
  });
});
