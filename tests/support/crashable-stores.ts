// Stores shared by two in-process "pages": the first page's view of them can crash, as a closed
// tab does, after which nothing it does reaches the stores; the second page uses them directly.
import { MemoryConversationStore, MemoryToolCallJournal } from '../../src/index.js';
import type { ConversationStore, ToolCallJournal } from '../../src/extend/index.js';

export interface SharedStores {
  conversations: MemoryConversationStore;
  /** The record of every call (asked, decided, started, done), as the first page's agent keeps it. */
  journal: MemoryToolCallJournal;
  /** The first page's view: writes fail once `crash()` was called (the page is gone). */
  page(): { conversations: ConversationStore; journal: ToolCallJournal; crash(only?: 'conversation'): void };
}

export function sharedStores(): SharedStores {
  const conversations = new MemoryConversationStore();
  const journal = new MemoryToolCallJournal();
  return {
    conversations,
    journal,
    page() {
      let gone = false;
      // `conversation`: only the conversation's writes fail (the journal's last write landed, the append did not).
      let conversationGone = false;
      const guard =
        <A extends unknown[], R>(write: (...args: A) => Promise<R>) =>
        (...args: A): Promise<R> =>
          gone ? Promise.reject(new Error('the page is gone')) : write(...args);
      const conversationGuard =
        <A extends unknown[], R>(write: (...args: A) => Promise<R>) =>
        (...args: A): Promise<R> =>
          conversationGone ? Promise.reject(new Error('the page is gone')) : guard(write)(...args);
      return {
        conversations: {
          load: (id) => conversations.load(id),
          append: conversationGuard((id, messages) => conversations.append(id, messages)),
          truncate: conversationGuard((id, length) => conversations.truncate(id, length)),
        },
        journal: {
          begin: guard((entry) => journal.begin(entry)),
          finish: guard((key, result) => journal.finish(key, result)),
          get: (key) => journal.get(key),
          ask: guard((entry) => journal.ask(entry)),
          decide: guard((key, decision) => journal.decide(key, decision)),
          note: guard((key, handle) => journal.note(key, handle)),
          listByConversation: (conversation) => journal.listByConversation(conversation),
          setStanding: guard((decision) => journal.setStanding(decision)),
          standing: (conversation, tool) => journal.standing(conversation, tool),
        },
        crash: (only) => {
          conversationGone = true;
          if (!only) gone = true;
        },
      };
    },
  };
}
