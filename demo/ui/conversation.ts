// Where the demo's conversation lives: the database its runs are stored in, and the id of the
// conversation this tab continues, kept in localStorage so a reload goes on with it.

/** The IndexedDB database of the demo's runners: conversations, approvals, snapshots, journals. */
export const DATABASE = 'ambi-demo';
const CONVERSATION_KEY = 'ambi-demo:conversation';

/** The id kept under `key` in localStorage, made on first use: a conversation that outlives the page. */
export function keptConversationId(key: string): string {
  let id = localStorage.getItem(key);
  if (!id) {
    id = `conv-${crypto.randomUUID()}`;
    localStorage.setItem(key, id);
  }
  return id;
}

/** The conversation this tab continues (kept across reloads). */
export function conversationId(): string {
  return keptConversationId(CONVERSATION_KEY);
}

/** Start a new conversation: the next question gets a new id (the stored one stays in the database). */
export function newConversation(): void {
  localStorage.removeItem(CONVERSATION_KEY);
}
