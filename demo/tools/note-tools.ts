// Tools over the app's own data (IndexedDB); deleting asks the person first.
import { defineTool, ToolError } from 'ambi-web/worker';
import { addNote, deleteNote, getNote, searchNotes, updateNote } from '../notes-db.js';

export const searchNotesTool = defineTool({
  name: 'search_notes',
  description: 'Find notes whose title or body contains all the given words. An empty query lists every note.',
  parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'], additionalProperties: false },
  readOnly: true,
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
  call: async ({ title, body }) => {
    const note = await addNote(title, body);
    return { id: note.id, title: note.title };
  },
});

export const updateNoteTool = defineTool({
  name: 'update_note',
  description: 'Change the title and/or body of a note.',
  parameters: {
    type: 'object',
    properties: { id: { type: 'string' }, title: { type: 'string' }, body: { type: 'string' } },
    required: ['id'],
    additionalProperties: false,
  },
  idempotent: true,
  call: async ({ id, title, body }) => {
    const note = await updateNote(id, { ...(title !== undefined ? { title } : {}), ...(body !== undefined ? { body } : {}) });
    if (!note) throw new ToolError(`No note with id ${id}`);
    return { id: note.id, title: note.title, body: note.body };
  },
});

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
