import type { HeldHandle, JsonValue } from '../core/types.js';
import type { HeldEntry, HeldInfo, HeldRecord } from './held-types.js';
import { isRecord, isTime, shown } from './record-shape.js';
import { corruptData, invalidValue } from './storage-failure.js';
import { partsFault } from './blob-parts.js';

/** A held id as the model writes it: `$` and a whole number from 1, nothing else. */
const HELD_ID = /^\$[1-9][0-9]{0,15}$/;

/** The position of held id `id` in its conversation, or undefined for anything that is not a held id. */
export function seqOf(id: unknown): number | undefined {
  return typeof id === 'string' && HELD_ID.test(id) ? Number(id.slice(1)) : undefined;
}

/** The JSON type of a held value, as its handle names it. */
export function jsonType(value: JsonValue): HeldHandle['type'] {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value as 'string' | 'number' | 'boolean' | 'object';
}

/** Refuse (`storage_invalid`) an entry that is not one a store holds: its tool, its call, a JSON value. Returns its value's JSON. */
export function checkEntry(entry: HeldEntry, action: string): string {
  if (!isRecord(entry)) throw invalidValue(action, 'the entry is not an object');
  if (typeof entry.from !== 'string' || entry.from === '') throw invalidValue(action, `its tool is ${shown(entry.from)}`);
  if (typeof entry.callId !== 'string') throw invalidValue(action, `its call id is ${shown(entry.callId)}`);
  let json: string | undefined;
  try {
    json = JSON.stringify(entry.value);
  } catch (error) {
    throw invalidValue(action, `its value is not JSON (${(error as Error).message})`);
  }
  if (json === undefined) throw invalidValue(action, 'its value is not JSON');
  const parts = entry.parts === undefined ? undefined : partsFault(entry.parts, false);
  if (parts) throw invalidValue(action, parts);
  return json;
}

/** The record of `entry` as held at `seq` in `conversation`. */
export function heldInfo(conversation: string, seq: number, entry: HeldEntry, length: number, heldAt: number): HeldInfo {
  const info: HeldInfo = {
    conversation,
    id: `$${seq}`,
    seq,
    from: entry.from,
    callId: entry.callId,
    type: jsonType(entry.value),
    length,
    heldAt,
    untrusted: true,
  };
  if (entry.parts && entry.parts.length > 0) info.partCount = entry.parts.length;
  return info;
}

/** A stored record as read back, refused (`storage_corrupt`) where it is not what the stores write. */
export function readHeldInfo(record: unknown, action: string): HeldInfo {
  const fail = (what: string) => corruptData(action, `a held value's record ${what}`);
  if (!isRecord(record)) throw fail('is not an object');
  const { conversation, id, seq, from, callId, type, length, heldAt, untrusted } = record;
  if (typeof conversation !== 'string' || typeof seq !== 'number' || id !== `$${seq}`) throw fail(`has the id ${shown(id)}`);
  if (typeof from !== 'string' || typeof callId !== 'string') throw fail('names no tool or call');
  if (typeof type !== 'string' || typeof length !== 'number' || !isTime(heldAt)) throw fail('has no type, length or time');
  if (untrusted !== true) throw fail('lost its mark');
  return record as unknown as HeldInfo;
}

/** A held value's record with its value, checked as `readHeldInfo` does. */
export function readHeldRecord(info: unknown, value: unknown, action: string, parts?: unknown): HeldRecord {
  const record: HeldRecord = { ...readHeldInfo(info, action), value: value as JsonValue };
  if (parts !== undefined) {
    const fault = partsFault(parts, false);
    if (fault) throw corruptData(action, `a held value's parts: ${fault}`);
    record.parts = parts as HeldRecord['parts'];
  }
  return record;
}
