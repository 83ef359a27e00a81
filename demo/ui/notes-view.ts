// The notes list and the editor form.
import { addNote, allNotes, onNotesChanged } from '../notes-db.js';

/** Render the notes and keep them current; the editor's Save creates a note. */
export function mountNotes(): void {
  const list = document.querySelector<HTMLUListElement>('#note-list')!;
  const render = async () => {
    const notes = await allNotes();
    // A highlight the assistant placed survives a re-render (tools run concurrently).
    const highlighted = new Set([...list.querySelectorAll<HTMLElement>('li.highlighted')].map((li) => li.dataset.noteId));
    list.replaceChildren(
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
  void render();

  const form = document.querySelector<HTMLFormElement>('#editor-form')!;
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const data = new FormData(form);
    const title = String(data.get('title') ?? '').trim();
    if (!title) return;
    await addNote(title, String(data.get('body') ?? ''));
    form.reset();
  });
}
