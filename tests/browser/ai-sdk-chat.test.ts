// Issue 34: the AI SDK's own useChat (React, @ai-sdk/react) on ambiChatTransport, with a WorkerRunner
// and the scripted engine, in real Chromium: the example's chat view, clicked as a person would.
import type { DynamicToolUIPart, UIMessage } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { page } from 'vitest/browser';
import { listTools } from '../../demo/ai-sdk/list-tools.js';
import { newChat } from '../../demo/ai-sdk/new-chat.js';
import { ambiChatTransport } from '../../src/ai-sdk/index.js';
import { IndexedDbConversationStore, type ScriptedReply, type WorkerRunner } from '../../src/index.js';
import { chatViewsUnmountedAfterEach } from '../support/chat-views.js';
import { freshDatabases } from '../support/fresh-databases.js';
import { callOf, openRunners } from '../support/worker-runners.js';

const runners = openRunners();
const databases = freshDatabases('ai-sdk');
const views = chatViewsUnmountedAfterEach();
let list: HTMLUListElement;
afterEach(async () => {
  runners.closeAll();
  list?.remove();
  await databases.deleteAll();
});

/** A runner with the example's list tools on a list in this page, holding `items`. */
function listRunner(replies: ScriptedReply[], items: string[] = [], database?: string): WorkerRunner {
  list?.remove();
  list = document.createElement('ul');
  for (const item of items) list.append(Object.assign(document.createElement('li'), { textContent: item }));
  document.body.append(list);
  const runner = runners.runnerWith(replies, database ? { database } : {});
  for (const tool of listTools(list)) runner.tool(tool);
  return runner;
}

const itemsOnPage = () => [...list.querySelectorAll('li')].map((li) => li.textContent);
const chatRegion = (title: string) => page.getByRole('region', { name: title });
const toolParts = (messages: UIMessage[]) => messages.flatMap((m) => m.parts.filter((p): p is DynamicToolUIPart => p.type === 'dynamic-tool'));

async function send(title: string, text: string): Promise<void> {
  await chatRegion(title)
    .getByRole('textbox', { name: `Message to ${title}` })
    .fill(text);
  await chatRegion(title).getByRole('button', { name: 'Send' }).click();
}

describe('useChat on ambiChatTransport (WorkerRunner, scripted engine)', () => {
  it('runs a tool on the page and shows the call, its output and the answer as UI message parts', async () => {
    const runner = listRunner([callOf('add_item', { item: 'milk' }, 'add-1'), 'Added milk.']);
    const chat = newChat('groceries', ambiChatTransport(runner));
    views.mount(chat, 'Assistant');
    await send('Assistant', 'Add milk');

    await expect.element(chatRegion('Assistant').getByText('Added milk.')).toBeVisible();
    expect(itemsOnPage()).toEqual(['milk']);
    expect(chat.status).toBe('ready');
    const [user, assistant] = chat.messages;
    expect(user!.parts).toEqual([{ type: 'text', text: 'Add milk' }]);
    expect(assistant!.parts.map((p) => p.type)).toEqual(['step-start', 'dynamic-tool', 'step-start', 'text']);
    expect(toolParts(chat.messages)).toMatchObject([
      { toolCallId: 'add-1', toolName: 'add_item', state: 'output-available', input: { item: 'milk' }, output: { items: ['milk'] }, providerExecuted: true },
    ]);
  });

  it("asks through the AI SDK's tool-approval parts; the Approve button (addToolApprovalResponse) lets the call run", async () => {
    const runner = listRunner([callOf('clear_list', {}, 'clear-1'), 'The list is empty now.'], ['milk', 'bread']);
    const chat = newChat('clearing', ambiChatTransport(runner));
    views.mount(chat, 'Assistant');
    await send('Assistant', 'Empty my list');

    const approve = chatRegion('Assistant').getByRole('button', { name: 'Approve clear_list' });
    await expect.element(approve).toBeVisible();
    // The response ended with the card: nothing ran, and the chat is ready for the person.
    expect(itemsOnPage()).toEqual(['milk', 'bread']);
    expect(chat.status).toBe('ready');
    expect(toolParts(chat.messages)).toMatchObject([{ toolCallId: 'clear-1', state: 'approval-requested', approval: { id: 'clear-1' } }]);

    await approve.click();
    await expect.element(chatRegion('Assistant').getByText('The list is empty now.')).toBeVisible();
    expect(itemsOnPage()).toEqual([]);
    expect(toolParts(chat.messages)).toMatchObject([{ toolCallId: 'clear-1', state: 'output-available', output: { removed: ['milk', 'bread'] } }]);
    // One assistant message: the answer continues the message that asked.
    expect(chat.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
  });
});
