// What the model read, carried to the UI: a tainted call's approval (untrusted content in its turn,
// an argument copied from it) shows `untrusted: { sources, flows }` in the AI SDK's tool part
// metadata and in the AG-UI interrupt's metadata, so a card can say it. The chunks are read here
// as the transport writes them; tests/browser/ai-sdk-untrusted.test.ts runs them through useChat.
import { EventSchemas } from '@ag-ui/core/schemas';
import type { UIMessageChunk } from 'ai';
import { describe, expect, it } from 'vitest';
import { toAgUiEvents } from '../../src/ag-ui/index.js';
import { agentRunner, ambiChatTransport } from '../../src/ai-sdk/index.js';
import { Agent, ChatRunner, scriptedEngine } from '../../src/index.js';
import { ATTACKER, readPage, sendEmail } from '../support/untrusted-tools.js';

/** A model that reads the page, then mails its author's address: the second call is tainted, its `to` copied from the page. */
async function obeyingRunner() {
  const sent: Array<{ to: string; body: string }> = [];
  const agent = (
    await Agent.make(
      scriptedEngine([
        { toolCalls: [{ id: 'read-1', name: 'read_page', arguments: {} }] },
        { toolCalls: [{ id: 'mail-1', name: 'send_email', arguments: { to: ATTACKER, body: 'Here you are.' } }] },
        'Done.',
      ]),
    )
  )
    .tool(readPage())
    .tool(sendEmail(sent));
  return { runner: agentRunner(new ChatRunner(), agent), sent };
}

const expected = { sources: [{ callId: 'read-1', name: 'read_page' }], flows: [{ path: '/to', from: 'read-1' }] };

describe('a tainted call in the AI SDK transport', () => {
  it("carries untrusted: { sources, flows } in its tool part's toolMetadata, before the approval request", async () => {
    const { runner, sent } = await obeyingRunner();
    const stream = await ambiChatTransport(runner).sendMessages({
      trigger: 'submit-message',
      chatId: 'mail',
      messageId: undefined,
      messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Read the page' }] }],
      abortSignal: undefined,
    });
    const chunks: UIMessageChunk[] = [];
    const reader = stream.getReader();
    for (let read = await reader.read(); !read.done; read = await reader.read()) chunks.push(read.value);

    const request = chunks.findIndex((c) => c.type === 'tool-approval-request');
    expect(chunks[request]).toMatchObject({ toolCallId: 'mail-1', approvalId: 'mail-1' });
    // The last word on the part before its card holds what the model read.
    const described = chunks
      .slice(0, request)
      .filter((c): c is Extract<UIMessageChunk, { type: 'tool-input-available' }> => c.type === 'tool-input-available' && c.toolCallId === 'mail-1')
      .at(-1);
    expect(described?.toolMetadata).toEqual({ untrusted: expected });
    // The call that read the page is not tainted itself: its part carries no such metadata.
    const reading = chunks.filter((c) => c.type === 'tool-input-available' && c.toolCallId === 'read-1');
    expect(reading.every((c) => !('toolMetadata' in c))).toBe(true);
    expect(sent).toEqual([]);
  });
});

describe('a tainted call in AG-UI events', () => {
  it("carries untrusted: { sources, flows } in its interrupt's metadata, which @ag-ui/core accepts", async () => {
    const { runner, sent } = await obeyingRunner();
    const events = toAgUiEvents(runner.run('Read the page', { conversation: 'mail-ag' }), { threadId: 'mail-ag' });
    const all = [];
    for await (const event of events) all.push(event);
    for (const event of all) expect(EventSchemas.safeParse(event).error, event.type).toBeUndefined();
    const finished = all.at(-1);
    expect(finished).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'interrupt' } });
    expect(events.interrupts).toEqual([expect.objectContaining({ id: 'mail-1', metadata: { untrusted: expected } })]);
    expect(sent).toEqual([]);
  });
});
