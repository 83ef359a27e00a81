// A stored conversation like a working agent's, for the benchmarks that grow one (snapshot-io,
// long-conversation, conversation-growth), and the same history in the AI SDK's message shape.
import type { Message } from '../../src/index.js';

/** A conversation like a working agent's: a question, a call, its result, an answer, repeated. */
export function conversation(length: number): Message[] {
  const out: Message[] = [{ role: 'system', content: 'You are a careful assistant for a notes app. Use the tools; answer briefly.' }];
  for (let i = 0; out.length < length; i++) {
    const id = `call_${i.toString(16).padStart(24, '0')}`;
    const cycle: Message[] = [
      { role: 'user', content: `Please find my note about topic ${i} and summarise it in two sentences.` },
      { role: 'assistant', content: '', toolCalls: [{ id, name: 'search_notes', arguments: { query: `topic ${i}`, limit: 5 } }] },
      {
        role: 'tool',
        toolCallId: id,
        name: 'search_notes',
        content: JSON.stringify({
          ok: true,
          output: [{ id: i, title: `Topic ${i}`, body: 'lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(4) }],
        }),
      },
      { role: 'assistant', content: `Your note "Topic ${i}" says: ${'lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(3)}` },
    ];
    for (const message of cycle) if (out.length < length) out.push(message);
  }
  return out;
}

/** The AI SDK's ModelMessage for one of ours (ai@7's shape: tool results as `{ type: 'text', value }` outputs). */
export function toModelMessage(message: Message): unknown {
  switch (message.role) {
    case 'system':
    case 'user':
      return { role: message.role, content: message.content };
    case 'assistant': {
      const parts: unknown[] = message.content ? [{ type: 'text', text: message.content }] : [];
      for (const call of message.toolCalls ?? []) parts.push({ type: 'tool-call', toolCallId: call.id, toolName: call.name, input: call.arguments });
      return { role: 'assistant', content: parts };
    }
    case 'tool':
      return {
        role: 'tool',
        content: [{ type: 'tool-result', toolCallId: message.toolCallId, toolName: message.name, output: { type: 'text', value: message.content } }],
      };
  }
}
