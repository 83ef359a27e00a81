// Tools over the app's own data (IndexedDB); deleting, and a change that throws text away, ask the person first.
// Notes may be pasted from anywhere (a mail, a web page): what search_notes returns is untrusted, and
// after it (or read_page) the model proposes a share or a change only with the person's approval.
import { defineTool, ToolError } from 'ambi-web/worker';
import { addNote, deleteNote, getNote, type Note, searchNotes, updateNote } from '../notes-db.js';

export const searchNotesTool = defineTool({
  name: 'search_notes',
  description: 'Find notes whose title or body contains all the given words. An empty query lists every note.',
  parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'], additionalProperties: false },
  readOnly: true,
  untrusted: true,
  call: async ({ query }) => (await searchNotes(query)).map(({ id, title, body }) => ({ id, title, body })),
});

export const addNoteTool = defineTool({
  name: 'add_note',
  description: 'Create a note.',
  parameters: {
    type: 'object',
    properties: { title: { type: 'string', minLength: 1 }, body: { type: 'string' } },
    required: ['title', 'body'],
    additionalProperties: false,
  },
  idempotent: false,
  // Adds, never removes, and the person sees the new note: runs after untrusted content too.
  afterUntrusted: 'allow',
  // Held values (hold mode) may be its title and body: the person sees the new note.
  heldArguments: { title: 'allow', body: 'allow' },
  call: async ({ title, body }) => {
    const note = await addNote(title, body);
    return { id: note.id, title: note.title };
  },
});

export const updateNoteTool = defineTool({
  name: 'update_note',
  description:
    'Change the title and/or body of a note. Adding to a note runs at once; a change that removes any of its text (an emptied or rewritten body, a renamed title) asks the person first.',
  parameters: {
    type: 'object',
    properties: { id: { type: 'string' }, title: { type: 'string' }, body: { type: 'string' } },
    required: ['id'],
    additionalProperties: false,
  },
  idempotent: true,
  // A change that throws text away is as final as a delete (a note read by the model may hold
  // instructions to empty the others): it asks, as delete_note does. One that keeps every word runs.
  needsApproval: async ({ id, title, body }) => {
    const note = await getNote(id);
    return note !== undefined && discardsText(note, { title, body });
  },
  call: async ({ id, title, body }) => {
    const note = await updateNote(id, { ...(title !== undefined ? { title } : {}), ...(body !== undefined ? { body } : {}) });
    if (!note) throw new ToolError(`No note with id ${id}`);
    return { id: note.id, title: note.title, body: note.body };
  },
});

/** Whether the change leaves out text the note has: a new title or body that does not hold the old one whole. */
export function discardsText(note: Pick<Note, 'title' | 'body'>, change: { title?: string | undefined; body?: string | undefined }): boolean {
  const loses = (before: string, after: string | undefined) => after !== undefined && before.trim() !== '' && !after.includes(before.trim());
  return loses(note.title, change.title) || loses(note.body, change.body);
}

export const deleteNoteTool = defineTool({
  name: 'delete_note',
  description: 'Delete a note. The person is asked to approve first.',
  parameters: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'], additionalProperties: false },
  idempotent: false,
  needsApproval: true,
  call: async ({ id }) => {
    const note = await getNote(id);
    if (!note || !(await deleteNote(id))) throw new ToolError(`No note with id ${id}`);
    return `Deleted "${note.title}"`;
  },
});

export const shareNoteTool = defineTool({
  name: 'share_note',
  description: "Share a note by email with an address (the demo's outbox: nothing leaves this browser).",
  parameters: {
    type: 'object',
    properties: { id: { type: 'string' }, to: { type: 'string', description: 'An email address' } },
    required: ['id', 'to'],
    additionalProperties: false,
  },
  idempotent: false,
  // Asked for by the person, it runs at once; proposed after the model read a page or a note, the
  // person approves it first (afterUntrusted's default for a tool that changes something). In hold
  // mode, only a held address asks: the card says `to` carries what the page said.
  heldArguments: { to: 'ask' },
  call: async ({ id, to }) => {
    const note = await getNote(id);
    if (!note) throw new ToolError(`No note with id ${id}`);
    send(note, to);
    return `Shared "${note.title}" with ${to}`;
  },
});

/** The demo's outbox, on the page: what share_note sent, and to whom. */
function send(note: Note, to: string): void {
  const outbox = document.querySelector<HTMLElement>('#outbox');
  if (!outbox) return;
  const item = document.createElement('li');
  item.dataset.noteId = note.id;
  item.textContent = `${note.title} → ${to}`;
  outbox.querySelector('ul')?.append(item);
  outbox.hidden = false;
}
