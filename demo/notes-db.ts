// The demo app's own data: notes in IndexedDB (separate from ambi-web's database).
import { openDB, type IDBPDatabase } from 'idb';

export interface Note {
  id: string;
  title: string;
  body: string;
  updatedAt: number;
}

const DB_NAME = 'ambi-demo-notes';
let db: Promise<IDBPDatabase> | undefined;

function database(): Promise<IDBPDatabase> {
  db ??= openDB(DB_NAME, 1, {
    upgrade(upgrading) {
      upgrading.createObjectStore('notes', { keyPath: 'id' });
    },
  });
  return db;
}

const listeners = new Set<() => void>();

/** Be told whenever notes change (the list re-renders). */
export function onNotesChanged(listener: () => void): void {
  listeners.add(listener);
}

function changed(): void {
  for (const listener of listeners) listener();
}

/** Every note, newest first. */
export async function allNotes(): Promise<Note[]> {
  const notes = (await (await database()).getAll('notes')) as Note[];
  return notes.sort((a, b) => b.updatedAt - a.updatedAt);
}

export async function getNote(id: string): Promise<Note | undefined> {
  return (await (await database()).get('notes', id)) as Note | undefined;
}

/** Notes whose title or body contains every word of `query` (case-insensitive). */
export async function searchNotes(query: string): Promise<Note[]> {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  return (await allNotes()).filter((note) => {
    const text = `${note.title} ${note.body}`.toLowerCase();
    return words.every((word) => text.includes(word));
  });
}

export async function addNote(title: string, body: string, given?: string): Promise<Note> {
  const id = given ?? (await freeId(title));
  const note: Note = { id, title, body, updatedAt: Date.now() };
  await (await database()).put('notes', note);
  changed();
  return note;
}

/**
 * A new note's id from its title (`n-lisbon-packing-list`, then `-2`, `-3`… if taken): readable, and
 * the same each time the same notes are written, so a recorded run replays (docs/traces.md).
 */
async function freeId(title: string): Promise<string> {
  const slug =
    title
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 40) || 'note';
  for (let n = 1; ; n++) {
    const id = n === 1 ? `n-${slug}` : `n-${slug}-${n}`;
    if (!(await getNote(id))) return id;
  }
}

export async function updateNote(id: string, patch: { title?: string; body?: string }): Promise<Note | undefined> {
  const note = await getNote(id);
  if (!note) return undefined;
  const next = { ...note, ...patch, updatedAt: Date.now() };
  await (await database()).put('notes', next);
  changed();
  return next;
}

export async function deleteNote(id: string): Promise<boolean> {
  const note = await getNote(id);
  if (!note) return false;
  await (await database()).delete('notes', id);
  changed();
  return true;
}

const FIRST_NOTES: ReadonlyArray<Omit<Note, 'updatedAt'>> = [
  { id: 'n-numbers', title: 'Quarterly numbers', body: 'Revenue up 12%; churn flat; hire two engineers in Q3.' },
  { id: 'n-lisbon', title: 'Trip to Lisbon', body: 'Book the tram 28 tour; pack light; visit Belém for pastries.' },
  { id: 'n-groceries', title: 'Groceries', body: 'Oat milk, lemons, coffee beans, rye bread.' },
];

/**
 * First visit: a few notes so the assistant has something to work with. One transaction,
 * so a page left while seeding (a reload, a navigation) leaves all of them or none.
 */
export async function seedNotes(): Promise<void> {
  const tx = (await database()).transaction('notes', 'readwrite');
  // tx.done is awaited with the writes: a failed count or put must not leave its rejection unhandled.
  const seeded = (async () => {
    if ((await tx.store.count()) > 0) return false;
    const now = Date.now();
    // Oldest first: the list shows the newest first.
    await Promise.all(FIRST_NOTES.map((note, i) => tx.store.put({ ...note, updatedAt: now + i })));
    return true;
  })();
  const [wrote] = await Promise.all([seeded, tx.done]);
  if (wrote) changed();
}
