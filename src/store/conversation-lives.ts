import { StorageError } from '../errors/storage-error.js';
import type { DatabaseLife } from './database.js';

// By database name, then conversation id: the database life the conversation was last used in.
// Realm-wide, so the conversation store and the journal of one database agree.
const lastUsedIn = new Map<string, Map<string, DatabaseLife>>();

/** Note that a conversation was read or written in this life of its database. */
export function noteConversationUse(dbName: string, id: string, life: DatabaseLife): void {
  let uses = lastUsedIn.get(dbName);
  if (!uses) lastUsedIn.set(dbName, (uses = new Map()));
  uses.set(id, life);
}

/** Forget where a conversation was used (it was deleted), so its id can start afresh. */
export function forgetConversationUse(dbName: string, id: string): void {
  lastUsedIn.get(dbName)?.delete(id);
}

/**
 * Refuse (`storage_closed`) an operation on a conversation used in a database life that
 * has since ended (the database was deleted, or the browser closed it): continuing it in
 * a new, empty database would leave it without its beginning, say a tool message whose
 * call is gone, and would run its calls with nothing to record them against.
 */
export function refuseLostConversation(dbName: string, id: string, action: string): void {
  const how = lastUsedIn.get(dbName)?.get(id)?.ended;
  if (how === undefined) return;
  throw new StorageError(
    `Could not ${action}: the database "${dbName}" was ${how} while conversation "${id}" was in use, so its earlier messages are gone, and it is not continued in a new, empty database. Delete the conversation (delete("${id}")) to use its id again.`,
    { code: 'storage_closed' },
  );
}
