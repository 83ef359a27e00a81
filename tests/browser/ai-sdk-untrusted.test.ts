// What the model read reaches the AI SDK's own Chat (@ai-sdk/react), in real Chromium through a
// WorkerRunner: a tainted call's tool part carries `toolMetadata.untrusted` ({ sources, flows }),
// which the AI SDK's own message schema accepts, so a card built on useChat can say it.
import { type DynamicToolUIPart, type UIMessage, validateUIMessages } from 'ai';
import { describe, expect, it, vi } from 'vitest';
import { newChat } from '../../demo/ai-sdk/new-chat.js';
import { ambiChatTransport } from '../../src/ai-sdk/index.js';
import { ATTACKER, readPage, sendEmail } from '../support/untrusted-tools.js';
import { runnersClosedAfterEach } from '../support/worker-runners.js';

const runners = runnersClosedAfterEach();
const toolParts = (messages: UIMessage[]) => messages.flatMap((m) => m.parts.filter((p): p is DynamicToolUIPart => p.type === 'dynamic-tool'));

describe('useChat on ambiChatTransport, a tainted call', () => {
  it("shows untrusted: { sources, flows } in the part's toolMetadata with its card; the AI SDK's schema accepts the messages", async () => {
    const sent: Array<{ to: string; body: string }> = [];
    const runner = runners.runnerWith([
      { toolCalls: [{ id: 'read-1', name: 'read_page', arguments: {} }] },
      { toolCalls: [{ id: 'mail-1', name: 'send_email', arguments: { to: ATTACKER, body: 'Here you are.' } }] },
      'Done.',
    ]);
    runner.tool(readPage()).tool(sendEmail(sent));
    const chat = newChat('tainted', ambiChatTransport(runner));
    await chat.sendMessage({ text: 'Read the page' });

    await vi.waitFor(() => expect(toolParts(chat.messages).find((p) => p.toolCallId === 'mail-1')?.state).toBe('approval-requested'));
    const [reading, mailing] = toolParts(chat.messages);
    expect(mailing).toMatchObject({
      toolName: 'send_email',
      approval: { id: 'mail-1' },
      toolMetadata: { untrusted: { sources: [{ callId: 'read-1', name: 'read_page' }], flows: [{ path: '/to', from: 'read-1' }] } },
    });
    expect(reading?.toolMetadata).toBeUndefined();
    expect(sent).toEqual([]);
    await expect(validateUIMessages({ messages: chat.messages })).resolves.toHaveLength(2);
  });
});
