import { isRecord, isTime, shown } from './record-shape.js';
import { corruptData, invalidValue } from './storage-failure.js';
import type { LeafSnapshot } from './types.js';

const STATUSES: ReadonlySet<unknown> = new Set(['running', 'done', 'failed']);

/** Refuse (`storage_invalid`) a snapshot id that is not a string. */
export function checkSnapshotId(id: unknown, action: string): void {
  if (typeof id !== 'string') throw invalidValue(action, `a snapshot id is a string, got ${shown(id)}`);
}

/**
 * Refuse (`storage_invalid`) a snapshot the stores cannot hold as one: IndexedDB rejects
 * a missing id, and silently leaves a snapshot without a numeric `createdAt` out of `list()`.
 */
export function checkSnapshot(snapshot: unknown, action: string): void {
  const fault = snapshotFault(snapshot);
  if (fault) throw invalidValue(action, `the snapshot ${fault}`);
}

/** A snapshot as read, refused (`storage_corrupt`) if it is not one the store writes. */
export function readSnapshot(value: unknown, action: string): LeafSnapshot {
  const fault = snapshotFault(value);
  if (fault) throw corruptData(action, `a stored snapshot ${fault}`);
  return value as LeafSnapshot;
}

function snapshotFault(value: unknown): string | undefined {
  if (!isRecord(value)) return `is ${shown(value)}, not an object`;
  if (typeof value.id !== 'string') return `has the id ${shown(value.id)}, not a string`;
  const named = `"${value.id}"`;
  if (!isTime(value.createdAt)) return `${named} has the createdAt ${shown(value.createdAt)}, not a time in epoch milliseconds`;
  if (!isTime(value.updatedAt)) return `${named} has the updatedAt ${shown(value.updatedAt)}, not a time in epoch milliseconds`;
  if (!STATUSES.has(value.status)) return `${named} has the status ${shown(value.status)}, not running, done or failed`;
  if (!Array.isArray(value.messages)) return `${named} has messages that are ${shown(value.messages)}, not a list`;
  if (!Array.isArray(value.tools)) return `${named} has tools that are ${shown(value.tools)}, not a list`;
  return undefined;
}
