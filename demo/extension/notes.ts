// The assistant's notes, in the extension's own IndexedDB (its origin, shared by its pages), and
// the two panel tools over them.
import { defineTool } from 'ambi-web/worker';
import { openDB, type IDBPDatabase } from 'idb';

export interface Note {
  id: string;
  title: string;
  body: string;
  savedAt: number;
}

let db: Promise<IDBPDatabase> | undefined;
const database = () =>
  (db ??= openDB('ambi-extension-notes', 1, {
    upgrade(upgrading) {
      upgrading.createObjectStore('notes', { keyPath: 'id' });
    },
  }));

const listeners = new Set<() => void>();

/** Be told whenever a note is saved. */
export function onNotesChanged(listener: () => void): void {
  listeners.add(listener);
}

/** Every note, newest first. */
export async function allNotes(): Promise<Note[]> {
  const notes = (await (await database()).getAll('notes')) as Note[];
  return notes.sort((a, b) => b.savedAt - a.savedAt);
}

export const saveNote = defineTool({
  name: 'save_note',
  description: "Save a note in the assistant's notes (kept in this browser).",
  parameters: {
    type: 'object',
    properties: { title: { type: 'string', minLength: 1, maxLength: 200 }, body: { type: 'string', maxLength: 20_000 } },
    required: ['title', 'body'],
    additionalProperties: false,
  },
  idempotent: false,
  // Adds a note the person sees, removes nothing: it runs after the model read a page too (tab tools are untrusted).
  afterUntrusted: 'allow',
  // In hold mode the page's words may be its title and body, passed by reference: the person sees the note.
  heldArguments: { title: 'allow', body: 'allow' },
  call: async ({ title, body }) => {
    const note: Note = { id: `n-${crypto.randomUUID().slice(0, 8)}`, title, body, savedAt: Date.now() };
    await (await database()).put('notes', note);
    for (const listener of listeners) listener();
    return { saved: note.id };
  },
});

export const listNotes = defineTool({
  name: 'list_notes',
  description: "List the assistant's saved notes (title and text).",
  parameters: { type: 'object', properties: {}, additionalProperties: false },
  readOnly: true,
  call: async () => (await allNotes()).map(({ id, title, body }) => ({ id, title, body })),
});
