// Issue 34, in-process: the UI adapters on an Agent and a ChatRunner (`agentRunner`), read as the
// chunks and events they write. The AI SDK is used for its types only, as the transport does
// (ai@7 declares Node >= 22; its runtime is exercised in tests/browser/ai-sdk-chat.test.ts).
import { EventSchemas } from '@ag-ui/core/schemas';
import type { UIMessage, UIMessageChunk } from 'ai';
import { describe, expect, it } from 'vitest';
import { toAgUiEvents } from '../../src/ag-ui/index.js';
import { agentRunner, ambiChatTransport } from '../../src/ai-sdk/index.js';
import { Agent, ChatRunner, defineTool, scriptedEngine, type ScriptedReply } from '../../src/index.js';

async function pantry(replies: ScriptedReply[]) {
  const shelf = ['jam'];
  const agent = (await Agent.make(scriptedEngine(replies))).tool(
    defineTool({
      name: 'empty_shelf',
      description: 'Empty the shelf',
      parameters: { type: 'object' },
      idempotent: false,
      needsApproval: true,
      call: () => ({ removed: shelf.splice(0) }),
    }),
  );
  return { runner: agentRunner(new ChatRunner(), agent), shelf };
}

async function chunksOf(stream: ReadableStream<UIMessageChunk> | null): Promise<UIMessageChunk[]> {
  const chunks: UIMessageChunk[] = [];
  const reader = stream?.getReader();
  for (let read = await reader?.read(); read && !read.done; read = await reader!.read()) chunks.push(read.value);
  return chunks;
}

const user = (text: string): UIMessage => ({ id: 'u1', role: 'user', parts: [{ type: 'text', text }] });

describe('ambiChatTransport in-process (agentRunner)', () => {
  it('writes a response that ends at the approval, and a second that goes on from the approval response', async () => {
    const { runner, shelf } = await pantry([{ text: 'Emptying.', toolCalls: [{ id: 'e-1', name: 'empty_shelf', arguments: {} }] }, 'Empty now.']);
    const transport = ambiChatTransport(runner);
    const first = await chunksOf(
      await transport.sendMessages({ trigger: 'submit-message', chatId: 'shelf', messageId: undefined, messages: [user('Empty it')], abortSignal: undefined }),
    );
    // The engine's text arrives in pieces: one delta each, in one text part.
    expect(
      first
        .filter((c) => c.type === 'text-delta')
        .map((c) => c.delta)
        .join(''),
    ).toBe('Emptying.');
    expect(first.map((c) => c.type).filter((type, i, all) => type !== 'text-delta' || all[i - 1] !== 'text-delta')).toEqual([
      'start',
      'start-step',
      'text-start',
      'text-delta',
      'text-end',
      'tool-input-start',
      'tool-input-available',
      'tool-approval-request',
      'finish',
    ]);
    expect(first.at(-2)).toEqual({ type: 'tool-approval-request', approvalId: 'e-1', toolCallId: 'e-1' });
    expect(first.at(-1)).toEqual({ type: 'finish', finishReason: 'tool-calls' });
    expect(shelf).toEqual(['jam']);

    const answered: UIMessage = {
      id: 'a1',
      role: 'assistant',
      parts: [
        { type: 'step-start' },
        { type: 'dynamic-tool', toolName: 'empty_shelf', toolCallId: 'e-1', state: 'approval-responded', input: {}, approval: { id: 'e-1', approved: true } },
      ],
    };
    const second = await chunksOf(
      await transport.sendMessages({
        trigger: 'submit-message',
        chatId: 'shelf',
        messageId: 'a1',
        messages: [user('Empty it'), answered],
        abortSignal: undefined,
      }),
    );
    expect(second.map((c) => c.type).filter((type, i, all) => type !== 'text-delta' || all[i - 1] !== 'text-delta')).toEqual([
      'start',
      'tool-output-available',
      'start-step',
      'text-start',
      'text-delta',
      'text-end',
      'finish-step',
      'finish',
    ]);
    expect(second[1]).toMatchObject({ toolCallId: 'e-1', output: { removed: ['jam'] } });
    expect(shelf).toEqual([]);
    // Nothing is left to reconnect to.
    expect(await transport.reconnectToStream({ chatId: 'shelf' })).toBeNull();
  });
});

describe('ambiChatTransport reconnects', () => {
  it('two reconnects at once (React strict mode mounts twice) resume a suspended run once; the later one shows the card', async () => {
    const { runner, shelf } = await pantry([{ toolCalls: [{ id: 'e-2', name: 'empty_shelf', arguments: {} }] }, 'Empty now.']);
    const run = runner.run('Empty it', { conversation: 'twice' });
    for await (const event of run.events) if (event.type === 'approval_requested') run.suspend();
    await expect(run.result).rejects.toMatchObject({ code: 'suspended' });
    let resumes = 0;
    const counting = { ...runner, resume: (...args: Parameters<typeof runner.resume>) => (resumes++, runner.resume(...args)) };
    const transport = ambiChatTransport(counting);

    const [first, second] = await Promise.all([transport.reconnectToStream({ chatId: 'twice' }), transport.reconnectToStream({ chatId: 'twice' })]);
    const [early, late] = await Promise.all([chunksOf(first), chunksOf(second)]);
    expect(resumes).toBe(1);
    // The first response lets go when the second takes over; the second asks for the decision.
    expect(early.some((c) => c.type === 'tool-approval-request')).toBe(false);
    expect(late.filter((c) => c.type === 'tool-approval-request')).toEqual([{ type: 'tool-approval-request', approvalId: 'e-2', toolCallId: 'e-2' }]);
    expect(late.at(-1)).toEqual({ type: 'finish', finishReason: 'tool-calls' });
    expect(shelf).toEqual(['jam']);
  });
});

describe('toAgUiEvents in-process', () => {
  it('every event of a run with text, an interrupt and its resume is one @ag-ui/core accepts', async () => {
    const { runner, shelf } = await pantry([{ text: 'Emptying.', toolCalls: [{ id: 'e-1', name: 'empty_shelf', arguments: {} }] }, 'Empty now.']);
    const events = toAgUiEvents(runner.run('Empty it', { conversation: 'shelf-ag-ui' }), { threadId: 'shelf-ag-ui' });
    const all = [];
    for await (const event of events) all.push(event);
    for await (const event of events.resume([{ interruptId: 'e-1', status: 'resolved', payload: { approved: true } }])) all.push(event);
    expect(all.filter((e) => e.type === 'RUN_FINISHED').map((e) => 'outcome' in e && e.outcome.type)).toEqual(['interrupt', 'success']);
    for (const event of all) expect(EventSchemas.safeParse(event).error, event.type).toBeUndefined();
    expect(shelf).toEqual([]);
  });
});
