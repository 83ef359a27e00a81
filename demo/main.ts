// The demo: a notes app whose assistant runs in a Web Worker, with tools on the page and in a tool worker.
import { mountAssistant } from './ui/assistant.js';
import { mountNotes } from './ui/notes-view.js';
import { resumeInterrupted } from './ui/resume-run.js';
import { mountSettings, showMode } from './ui/settings.js';
import { mountWebMcp } from './ui/webmcp.js';
import { SAMPLE_CSV } from './walkthrough.js';

// Every part wires its handlers before it touches a store, and says a failing store on the page
// instead of rejecting: whatever the stored data holds, the page boots and stays usable.
mountSettings(showMode);
document.querySelector<HTMLTextAreaElement>('#csv')!.value = SAMPLE_CSV;
try {
  await Promise.all([mountNotes(), mountAssistant(), mountWebMcp()]);
} finally {
  document.body.dataset.ready = 'true';
}
// A run interrupted by a reload, with approvals waiting, comes back (after another tab's, if one holds it).
void resumeInterrupted(document.querySelector<HTMLElement>('#chat')!);
