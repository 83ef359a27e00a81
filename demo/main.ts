// The demo: a notes app whose assistant runs in a Web Worker, with tools on the page and in a tool worker.
import { seedNotes } from './notes-db.js';
import { mountAssistant } from './ui/assistant.js';
import { mountNotes } from './ui/notes-view.js';
import { mountSettings, showMode } from './ui/settings.js';
import { SAMPLE_CSV } from './walkthrough.js';

await seedNotes();
mountNotes();
document.querySelector<HTMLTextAreaElement>('#csv')!.value = SAMPLE_CSV;
mountSettings(showMode);
await mountAssistant();
document.body.dataset.ready = 'true';
