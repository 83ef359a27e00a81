/** Oldest `createdAt` first, ties by id: the order an IndexedDB `createdAt` index lists records in. */
export function byCreation(a: { createdAt: number; id: string }, b: { createdAt: number; id: string }): number {
  return a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}
