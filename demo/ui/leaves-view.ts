// The leaf snapshots panel, read straight from IndexedDB.
import { IndexedDbSnapshotStore, type LeafSnapshot } from 'ambi-web/worker';
import { appendItem, asProblem } from './render.js';

/** Re-read and show every leaf snapshot, newest last; a store that cannot be read is said in the panel. Never rejects. */
export async function refreshLeaves(database: string): Promise<void> {
  const list = document.querySelector<HTMLUListElement>('#leaves')!;
  try {
    const snapshots = await (await IndexedDbSnapshotStore.open(database)).list();
    list.replaceChildren(...snapshots.map(snapshotItem));
  } catch (error) {
    const { code, message } = asProblem(error);
    list.replaceChildren();
    appendItem(list, 'error', `The leaf snapshots could not be read (${code}): ${message}`);
  }
}

function snapshotItem(snapshot: LeafSnapshot): HTMLLIElement {
  const item = document.createElement('li');
  item.dataset.status = snapshot.status;
  item.dataset.leafId = snapshot.id;
  const outcome = snapshot.status === 'done' ? `: ${snapshot.result ?? ''}` : snapshot.status === 'failed' ? `: ${snapshot.error?.message ?? ''}` : '';
  item.textContent = `${snapshot.task} [${snapshot.status}]${outcome}`;
  return item;
}
