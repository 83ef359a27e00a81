import type { HeldHandle, JsonValue } from '../core/types.js';
import type { MediaPart } from '../core/parts.js';

/**
 * What a conversation holds of one held value (`untrusted: 'hold'`), without the value: its id
 * (`$1`, `$2`, … in the order held), the call and tool whose result it is, its JSON type and the
 * length of its JSON. Marked: it is someone else's words.
 */
export interface HeldInfo {
  conversation: string;
  /** `$N`. */
  id: string;
  /** N: ids are never reused in a conversation, whatever is truncated. */
  seq: number;
  /** The tool whose result it is. */
  from: string;
  /** The call whose result it is. */
  callId: string;
  type: HeldHandle['type'];
  /** `JSON.stringify(value).length`. */
  length: number;
  /** When it was held, in epoch milliseconds. */
  heldAt: number;
  /** How many images or files were held with the value (a tool's parts), if any. */
  partCount?: number;
  untrusted: true;
}

/** A held value with what the conversation knows of it. */
export interface HeldRecord extends HeldInfo {
  value: JsonValue;
  /** The images or files held with it (a tool's parts: the model never receives their bytes). */
  parts?: MediaPart[];
}

/** What a store is given to hold: the value, and the call and tool whose result it is. */
export interface HeldEntry {
  from: string;
  callId: string;
  value: JsonValue;
  /** The images or files the tool returned beside it, held with it. */
  parts?: MediaPart[];
}

/**
 * Where the held values of conversations live, next to them (a conversation store's `held`), in
 * memory or IndexedDB: across runs, resumes and reloads. Every refusal is a coded StorageError.
 */
export interface HeldValueStore {
  /** Hold `entry` in `conversation` under the next id (`$1` first); resolves with what was kept. */
  hold(conversation: string, entry: HeldEntry): Promise<HeldInfo>;
  /** The value held under `id` in `conversation`, or undefined (an id it never gave, or not an id at all). */
  get(conversation: string, id: string): Promise<HeldRecord | undefined>;
  /** What `conversation` holds, without the values, oldest first. */
  list(conversation: string): Promise<HeldInfo[]>;
}
