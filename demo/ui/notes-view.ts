// The notes list and the editor form.
import { addNote, allNotes, onNotesChanged, seedNotes } from '../notes-db.js';
import { appendItem, asProblem } from './render.js';

/**
 * Render the notes and keep them current; the editor's Save creates a note; a first visit gets
 * a few notes. Never rejects: notes that cannot be stored or read are said in the list.
 */
export async function mountNotes(): Promise<void> {
  const list = document.querySelector<HTMLUListElement>('#note-list')!;
  const problem = (doing: string, error: unknown) => {
    const { code, message } = asProblem(error);
    appendItem(list, 'error', `The notes could not be ${doing} (${code}): ${message}`);
  };
  const render = async () => {
    const notes = await allNotes().catch((error: unknown) => void problem('read', error));
    if (!notes) return;
    // A highlight the assistant placed survives a re-render (tools run concurrently).
    const highlighted = new Set([...list.querySelectorAll<HTMLElement>('li.highlighted')].map((li) => li.dataset.noteId));
    // A problem said earlier (say, the first notes could not be written) stays said.
    list.replaceChildren(
      ...list.querySelectorAll('li.error'),
      ...notes.map((note) => {
        const item = document.createElement('li');
        item.dataset.noteId = note.id;
        if (highlighted.has(note.id)) item.classList.add('highlighted');
        const title = document.createElement('strong');
        title.textContent = note.title;
        const body = document.createElement('span');
        body.textContent = note.body;
        item.append(title, body);
        return item;
      }),
    );
  };
  onNotesChanged(() => void render());

  const form = document.querySelector<HTMLFormElement>('#editor-form')!;
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const data = new FormData(form);
    const title = String(data.get('title') ?? '').trim();
    if (!title) return;
    try {
      await addNote(title, String(data.get('body') ?? ''));
      form.reset();
    } catch (error) {
      problem('saved', error);
    }
  });

  // Handlers first, then the data.
  await seedNotes().catch((error: unknown) => problem('prepared', error));
  await render();
}
