import type { ConversationInfo } from './conversation-store.js';
import type { DBSchema, IDBPDatabase, IDBPTransaction, StoreNames } from 'idb';
import type { JsonValue, Message } from '../core/types.js';
import type { MediaPart } from '../core/parts.js';
import type { HeldInfo } from './held-types.js';
import type { JournalEntry, LeafSnapshot } from './types.js';
import type { StandingDecision } from './approval-types.js';
import { migratedApproval, type LegacyApproval } from './legacy-approvals.js';

/** One conversation message as stored: keyed `[conversationId, seq]` so a conversation is one key range. */
export interface StoredMessage {
  conversationId: string;
  /** The message's position in its conversation, from 0. */
  seq: number;
  message: Message;
}

/** A conversation's metadata, written in the same transaction as its messages. */
export type ConversationRecord = ConversationInfo;

/** The ambi-web database, typed for idb. */
export interface AmbiDbSchema extends DBSchema {
  snapshots: { key: string; value: LeafSnapshot; indexes: { createdAt: number } };
  messages: { key: [string, number]; value: StoredMessage };
  conversations: { key: string; value: ConversationRecord };
  journal: { key: string; value: JournalEntry; indexes: { conversation: string } };
  /** Approvals of steps 4 to 6; step 7 moves each into its call's journal record and deletes the store. */
  approvals: { key: [string, string]; value: LegacyApproval };
  standing: { key: [string, string]; value: StandingDecision };
  // The MCP login's records (src/mcp/auth/auth-records.ts, a floor above): only the keys the stores index are typed here.
  mcpAuth: { key: string; value: { server: string } };
  mcpLogins: { key: string; value: { state: string; createdAt: number }; indexes: { createdAt: number } };
  heldInfo: { key: [string, number]; value: HeldInfo };
  heldValues: { key: [string, number]; value: StoredHeldValue };
}

/** A held value as stored, apart from what is known of it (`heldInfo`): read only when named. */
export interface StoredHeldValue {
  conversation: string;
  seq: number;
  value: JsonValue;
  /** A tool's images or files held with the value, their bytes as Blobs. */
  parts?: MediaPart[];
  untrusted: true;
}

export type AmbiDatabase = IDBPDatabase<AmbiDbSchema>;

/** The transaction an upgrade runs in: what a step that moves records reads and writes through. */
export type UpgradeTransaction = IDBPTransaction<AmbiDbSchema, ArrayLike<StoreNames<AmbiDbSchema>>, 'versionchange'>;

/** One step of the schema: stores made or removed, records moved (awaiting only the upgrade's own requests). */
type SchemaStep = (db: AmbiDatabase, tx: UpgradeTransaction | undefined) => void | Promise<void>;

/**
 * The schema's history: step N upgrades a version N-1 database to version N. Steps are
 * only ever appended (never edited), so a database of any older version reaches the
 * current one without losing data.
 */
export const SCHEMA_STEPS: readonly SchemaStep[] = [
  // 1: leaf snapshots.
  (db) => {
    db.createObjectStore('snapshots', { keyPath: 'id' }).createIndex('createdAt', 'createdAt');
  },
  // 2: persistent conversations, messages apart from metadata so an append writes only new rows.
  (db) => {
    db.createObjectStore('messages', { keyPath: ['conversationId', 'seq'] });
    db.createObjectStore('conversations', { keyPath: 'id' });
  },
  // 3: the tool-call journal.
  (db) => {
    db.createObjectStore('journal', { keyPath: 'idempotencyKey' }).createIndex('conversation', 'conversation');
  },
  // 4: approvals of interrupted runs and standing decisions, keyed by conversation first.
  (db) => {
    db.createObjectStore('approvals', { keyPath: ['conversation', 'callId'] });
    db.createObjectStore('standing', { keyPath: ['conversation', 'tool'] });
  },
  // 5: MCP servers' OAuth credentials (by server), and the logins begun and not yet finished (by state).
  (db) => {
    db.createObjectStore('mcpAuth', { keyPath: 'server' });
    db.createObjectStore('mcpLogins', { keyPath: 'state' }).createIndex('createdAt', 'createdAt');
  },
  // 6: held values (`untrusted: 'hold'`), keyed by conversation first: what is known of each, and the value apart.
  (db) => {
    db.createObjectStore('heldInfo', { keyPath: ['conversation', 'seq'] });
    db.createObjectStore('heldValues', { keyPath: ['conversation', 'seq'] });
  },
  // 7: one record per call: each approval (asked, decided) joins its call's journal record (by the
  // call's idempotency key), so a resume reads one place; the approvals store goes.
  async (db, tx) => {
    if (!tx) throw new Error('schema step 7 moves records: it needs the upgrade transaction');
    const approvals = tx.objectStore('approvals');
    const journal = tx.objectStore('journal');
    for (const record of await approvals.getAll()) {
      const entry = await migratedApproval(record, (key) => journal.get(key));
      if (entry) await journal.put(entry);
    }
    db.deleteObjectStore('approvals');
  },
];

/** The version this code opens the database at. */
export const SCHEMA_VERSION = SCHEMA_STEPS.length;

/**
 * Apply the steps a database at `oldVersion` has not seen yet, up to `newVersion`, in order; a step
 * that moves records (7) is given the upgrade's transaction, and the steps after it wait for it.
 */
export function upgradeSchema(db: AmbiDatabase, oldVersion: number, newVersion: number = SCHEMA_VERSION, tx?: UpgradeTransaction): void | Promise<void> {
  for (let version = oldVersion + 1; version <= newVersion; version++) {
    const moving = SCHEMA_STEPS[version - 1]?.(db, tx);
    if (moving) return moving.then(() => upgradeSchema(db, version, newVersion, tx));
  }
  return undefined;
}
