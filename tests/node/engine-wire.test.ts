import { describe, expect, it } from 'vitest';
import { toWireMessage } from '../../src/engines/openai/request.js';
import type { Message } from '../../src/index.js';

const assistant: Message = {
  role: 'assistant',
  content: 'Checking. [TOOL_CALL]{"name":"add","args":{"a":1}}[/TOOL_CALL]',
  toolCalls: [{ id: 'c1', name: 'add', arguments: { a: 1 } }],
};
const result: Message = { role: 'tool', toolCallId: 'c1', name: 'add', content: '{"ok":true,"output":1}' };

describe('wire messages', () => {
  it('sends native tool calls and tool-role results when the server has native tools', () => {
    expect(toWireMessage(assistant, true)).toMatchObject({
      role: 'assistant',
      tool_calls: [{ id: 'c1', type: 'function', function: { name: 'add', arguments: '{"a":1}' } }],
    });
    expect(toWireMessage(result, true)).toEqual({ role: 'tool', tool_call_id: 'c1', name: 'add', content: '{"ok":true,"output":1}' });
  });

  it('keeps calls in the text and sends results as runtime user messages without native tools', () => {
    const wire = toWireMessage(assistant, false);
    expect(wire).toEqual({ role: 'assistant', content: assistant.content });
    expect(toWireMessage(result, false)).toEqual({ role: 'user', content: '[runtime] Result of tool call c1 (add): {"ok":true,"output":1}' });
  });
});
