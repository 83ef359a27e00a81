// The side panel: ask about the page in the active tab; the model's tools run in that tab.
import { appendItem, asProblem, describeError } from '../ui/render.js';
import { conversationId, follow, makeRunner, newConversation, offlineScript, resumeInterrupted } from './assistant.js';
import { allNotes, onNotesChanged } from './notes.js';
import { loadSettings, mountSettings } from './settings.js';
import { RESUMED_OFFLINE, WALKTHROUGH_PROMPT } from './walkthrough.js';

const chat = document.querySelector<HTMLOListElement>('#chat')!;
const form = document.querySelector<HTMLFormElement>('#ask-form')!;
const input = document.querySelector<HTMLInputElement>('#ask-input')!;
const send = document.querySelector<HTMLButtonElement>('#send')!;
const stop = document.querySelector<HTMLButtonElement>('#stop')!;
const walkthrough = document.querySelector<HTMLButtonElement>('#walkthrough')!;
let asking: AbortController | undefined;

function busy(running: boolean): void {
  send.disabled = walkthrough.disabled = running;
  stop.disabled = !running;
  document.body.dataset.run = running ? 'running' : 'idle';
}

/** One question: a runner made for it (the tab may have changed since the last one), run, then closed. */
async function ask(text: string): Promise<void> {
  const stopping = new AbortController();
  asking = stopping;
  appendItem(chat, 'user', text);
  busy(true);
  let runner: Awaited<ReturnType<typeof makeRunner>> | undefined;
  try {
    runner = await makeRunner(chat, loadSettings(), offlineScript(text), stopping.signal);
    await follow(chat, runner.run(text, { conversation: conversationId(), lock: 'fail', signal: stopping.signal }));
  } catch (error) {
    appendItem(chat, 'error', describeError(asProblem(error)));
  } finally {
    runner?.close();
    asking = undefined;
    busy(false);
  }
}

async function showNotes(): Promise<void> {
  const list = document.querySelector<HTMLUListElement>('#notes')!;
  const notes = await allNotes().catch(() => []);
  list.replaceChildren(...notes.map((note) => Object.assign(document.createElement('li'), { textContent: `${note.title}: ${note.body}` })));
}

form.addEventListener('submit', (event) => {
  event.preventDefault();
  const text = input.value.trim();
  if (!text || asking) return;
  input.value = '';
  void ask(text);
});
walkthrough.addEventListener('click', () => void ask(WALKTHROUGH_PROMPT));
stop.addEventListener('click', () => asking?.abort('Stopped by the person'));
document.querySelector('#new-conversation')!.addEventListener('click', () => {
  newConversation();
  chat.replaceChildren();
});
mountSettings();
onNotesChanged(() => void showNotes());
busy(false);
void showNotes();
document.body.dataset.ready = 'true';
// A run cut off when the panel closed, with approvals waiting, comes back here.
void resumeInterrupted(chat, loadSettings(), RESUMED_OFFLINE).finally(() => {
  document.body.dataset.resumeChecked = 'true';
});
