// The side panel: ask about the page in the active tab; the model's tools run in that tab.
import { appendItem, asProblem, describeError } from '../ui/render.js';
import { conversationId, follow, makeRunner, newConversation, offlineScript, resumeInterrupted } from './assistant.js';
import { allNotes, onNotesChanged } from './notes.js';
import { loadSettings, mountSettings } from './settings.js';
import { offerTabs } from './tab-picker.js';
import { targetTab } from './target-tab.js';
import { RESUMED_OFFLINE, WALKTHROUGH_PROMPT } from './walkthrough.js';

const chat = document.querySelector<HTMLOListElement>('#chat')!;
const form = document.querySelector<HTMLFormElement>('#ask-form')!;
const input = document.querySelector<HTMLInputElement>('#ask-input')!;
const send = document.querySelector<HTMLButtonElement>('#send')!;
const stop = document.querySelector<HTMLButtonElement>('#stop')!;
const walkthrough = document.querySelector<HTMLButtonElement>('#walkthrough')!;
let asking: AbortController | undefined;
/** Whether there is a tab to work on: without one the walkthrough, which is all about the page, does not run. */
let hasTab = false;

function busy(running: boolean): void {
  send.disabled = running;
  walkthrough.disabled = running || !hasTab;
  walkthrough.title = hasTab ? '' : 'Pick a tab to work on first';
  stop.disabled = !running;
  document.body.dataset.run = running ? 'running' : 'idle';
}

/** Find the tab to work on; with none, say so and offer the open tabs. Resolves with whether there is one. */
async function checkTab(): Promise<boolean> {
  const tab = await targetTab().catch(() => undefined);
  hasTab = tab !== undefined;
  document.body.dataset.tab = hasTab ? String(tab) : 'none';
  const noTab = document.querySelector<HTMLElement>('#no-tab')!;
  if (hasTab) noTab.hidden = true;
  else {
    document.querySelector<HTMLElement>('#tab-label')!.textContent = 'No tab';
    await offerTabs(noTab);
  }
  busy(asking !== undefined);
  return hasTab;
}

/** One question: a runner made for it (the tab may have changed since the last one), run, then closed. */
async function ask(text: string): Promise<void> {
  // The walkthrough reads and changes the page: with no tab it would only meet missing tools.
  if (text === WALKTHROUGH_PROMPT && !(await checkTab())) return;
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
await checkTab();
document.body.dataset.ready = 'true';
// A run cut off when the panel closed, with approvals waiting, comes back here.
void resumeInterrupted(chat, loadSettings(), RESUMED_OFFLINE).finally(() => {
  document.body.dataset.resumeChecked = 'true';
});
