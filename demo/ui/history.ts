// The stored conversation, shown again after a reload.
import { IndexedDbConversationStore, type Message } from 'ambi-web/worker';
import { appendItem, asProblem } from './render.js';

/**
 * Show conversation `id` of `database` at the top of the chat (a question asked meanwhile stays
 * below it). A store that cannot be opened or read, or a row that is not a message, is told to
 * the person, never thrown: the page stays usable.
 */
export async function showHistory(chat: HTMLElement, database: string, id: string): Promise<void> {
  const shown = document.createElement('ol');
  const tell = ({ code, message }: { code: string; message: string }) =>
    appendItem(shown, 'error', `The stored conversation could not be shown (${code}): ${message}. Start a New conversation to go on.`);
  try {
    const messages = await (await IndexedDbConversationStore.open(database)).load(id);
    if (messages.some(isDamaged)) tell({ code: 'damaged', message: 'a stored message is missing or damaged' });
    else renderHistory(shown, messages);
  } catch (error) {
    tell(asProblem(error));
  }
  chat.prepend(...shown.children);
  chat.scrollTop = chat.scrollHeight;
}

const isDamaged = (message: unknown) => typeof message !== 'object' || message === null || typeof (message as { role?: unknown }).role !== 'string';

function renderHistory(chat: HTMLElement, messages: readonly Message[]): void {
  for (const message of messages) {
    if (message.role === 'user' && message.origin !== 'runtime') appendItem(chat, 'user', userText(message.content));
    if (message.role === 'assistant') {
      // Without native tools the stored reply keeps its tagged calls; they are listed below it instead.
      const text = message.content.replace(/\[TOOL_CALL\][\s\S]*?(\[\/TOOL_CALL\]|$)/g, '').trim();
      if (text) appendItem(chat, 'assistant', text);
      for (const call of message.toolCalls ?? []) appendItem(chat, 'tool', `→ ${call.name} ${JSON.stringify(call.arguments)}`);
    }
    if (message.role === 'tool') appendItem(chat, 'tool', `← ${message.name}: ${message.content.slice(0, 160)}`);
  }
}

/** A person's message as the chat shows it: its text, an attached image or file named in brackets. */
function userText(content: Message['content']): string {
  if (typeof content === 'string') return content;
  return content.map((part) => (part.type === 'text' ? part.text : `[${part.type === 'image' ? 'image' : (part.filename ?? 'file')}]`)).join(' ');
}
