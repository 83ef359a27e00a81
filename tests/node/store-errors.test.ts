import { describe, expect, it } from 'vitest';
import { isAmbiError } from '../../src/errors/ambi-error.js';
import { StorageError, type StorageErrorCode } from '../../src/errors/storage-error.js';
import { IndexedDbConversationStore } from '../../src/store/indexeddb-conversation-store.js';
import { IndexedDbSnapshotStore } from '../../src/store/indexeddb-snapshot-store.js';
import { IndexedDbToolCallJournal } from '../../src/store/indexeddb-tool-call-journal.js';
import { storageOperation, toStorageError } from '../../src/store/storage-failure.js';
import { rejection } from '../contract/store-contracts.js';

describe('toStorageError', () => {
  it.each([
    ['QuotaExceededError', 'storage_quota'],
    ['DataCloneError', 'storage_uncloneable'],
    ['AbortError', 'storage_aborted'],
    ['InvalidStateError', 'storage_closed'],
    ['VersionError', 'storage_version'],
    ['SecurityError', 'storage_unavailable'],
    ['UnknownError', 'storage_error'],
    ['ConstraintError', 'storage_error'],
  ] as [string, StorageErrorCode][])('maps a %s to %s', (name, code) => {
    const error = toStorageError(new DOMException('the browser said no', name), 'store snapshot "s1"');
    expect(error).toBeInstanceOf(StorageError);
    expect(isAmbiError(error, code)).toBe(true);
  });

  it('keeps the original error as cause and names the action and reason in the message', () => {
    const original = new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    const error = toStorageError(original, 'append to conversation "c1"');
    expect(error.cause).toBe(original);
    expect(error.message).toContain('Could not append to conversation "c1"');
    expect(error.message).toContain('storage quota');
    expect(error.message).toContain('The quota has been exceeded.');
  });

  it('maps an error that is not a DOMException to storage_error', () => {
    const original = new TypeError('boom');
    const error = toStorageError(original, 'list snapshots');
    expect(error).toMatchObject({ code: 'storage_error', cause: original });
  });

  it('maps a thrown non-error value to storage_error', () => {
    expect(toStorageError('weird', 'list snapshots')).toMatchObject({ code: 'storage_error', cause: 'weird' });
  });

  it('passes an ambi-web error through unchanged', () => {
    const coded = new StorageError('already coded', { code: 'storage_blocked' });
    expect(toStorageError(coded, 'open database')).toBe(coded);
  });
});

describe('storageOperation', () => {
  it('resolves with the operation’s value', async () => {
    await expect(storageOperation('read', async () => 42)).resolves.toBe(42);
  });

  it('rejects with the coded error for a DOMException the operation threw', async () => {
    const error = await rejection(
      storageOperation('store snapshot', async () => {
        throw new DOMException('quota', 'QuotaExceededError');
      }),
    );
    expect(isAmbiError(error, 'storage_quota')).toBe(true);
  });
});

describe('StorageError', () => {
  it('has code storage_error unless given another', () => {
    expect(new StorageError('failed').code).toBe('storage_error');
    expect(new StorageError('full', { code: 'storage_quota' }).code).toBe('storage_quota');
  });
});

describe('IndexedDB stores without IndexedDB (Node)', () => {
  it.each([
    ['IndexedDbSnapshotStore', () => IndexedDbSnapshotStore.open('node-test')],
    ['IndexedDbConversationStore', () => IndexedDbConversationStore.open('node-test')],
    ['IndexedDbToolCallJournal', () => IndexedDbToolCallJournal.open('node-test')],
  ])('%s.open rejects with storage_unavailable', async (_name, open) => {
    const error = await rejection(open());
    expect(error).toBeInstanceOf(StorageError);
    expect(isAmbiError(error, 'storage_unavailable')).toBe(true);
  });
});
