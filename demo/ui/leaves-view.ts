// The leaf snapshots panel, read straight from IndexedDB.
import { IndexedDbSnapshotStore } from '../../src/store/indexeddb-snapshot-store.js';

/** Re-read and show every leaf snapshot, newest last. */
export async function refreshLeaves(database: string): Promise<void> {
  const list = document.querySelector<HTMLUListElement>('#leaves')!;
  const snapshots = await (await IndexedDbSnapshotStore.open(database)).list();
  list.replaceChildren(
    ...snapshots.map((snapshot) => {
      const item = document.createElement('li');
      item.dataset.status = snapshot.status;
      item.dataset.leafId = snapshot.id;
      const outcome = snapshot.status === 'done' ? `: ${snapshot.result ?? ''}` : snapshot.status === 'failed' ? `: ${snapshot.error?.message ?? ''}` : '';
      item.textContent = `${snapshot.task} [${snapshot.status}]${outcome}`;
      return item;
    }),
  );
}
