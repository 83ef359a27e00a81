// The assistant panel: wires the question box, the walkthrough, Stop and New conversation, then
// shows the stored conversation. A question runs on a runner worker (kept-runner.ts), followed in
// the chat and the timeline (followed-run.ts).
import type { WorkerRunner } from 'ambi-web/worker';
import { WALKTHROUGH_PROMPT } from '../walkthrough.js';
import { chat, showStatus, timeline } from './assistant-panel.js';
import { conversationId, DATABASE, newConversation } from './conversation.js';
import { beginRun, endRun, follow, isFollowing, showRunning, stopFollowedRun, waitBeforeAsking } from './followed-run.js';
import { showHistory } from './history.js';
import { closeRunner, runnerFor } from './kept-runner.js';
import { refreshLeaves } from './leaves-view.js';
import { appendItem, asProblem, describeError } from './render.js';
import { loadSettings } from './settings.js';
import { keepTimelineAcrossReloads } from './timeline-keep.js';

/** Ask `text` (with an attached `image`) and follow its run; Stop aborts it, from the model download to the run's last tool. */
async function ask(text: string, image?: File): Promise<void> {
  const asking = beginRun('ask');
  const stopping = asking.stop;
  appendItem(chat(), 'user', text);
  if (image) appendItem(chat(), 'notice', `with the image ${image.name}`);
  timeline().reset();
  let runner: WorkerRunner | undefined;
  let keep = false;
  try {
    const settings = loadSettings();
    const made = await runnerFor(settings, text, stopping.signal);
    ({ runner, keep } = made);
    // An attached image goes with the words (a Blob: it crosses to the runner worker without a copy).
    const input = image
      ? [
          { type: 'text' as const, text },
          { type: 'image' as const, image },
        ]
      : text;
    const run = runner.run(input, { conversation: conversationId(), lock: 'fail', signal: stopping.signal });
    // A runner whose worker is gone cannot answer again: the next question makes a new one.
    if (!(await follow(run, settings.mode === 'local' && made.fresh))) keep = false;
    // What the runner recorded so far, for the timeline's export (before an offline runner closes).
    else timeline().setCassette(await runner.cassette().catch(() => undefined));
  } catch (error) {
    appendItem(chat(), 'error', describeError(asProblem(error)));
  } finally {
    showStatus(undefined);
    if (!keep) closeRunner(runner);
    endRun(asking);
    void refreshLeaves(DATABASE);
  }
}

/** Wire the assistant panel, then show the stored conversation. Never rejects: a store that fails at start-up is told in the chat. */
export async function mountAssistant(): Promise<void> {
  const form = document.querySelector<HTMLFormElement>('#ask-form')!;
  const input = document.querySelector<HTMLInputElement>('#ask-input')!;
  const stop = document.querySelector<HTMLButtonElement>('#stop')!;
  const walkthrough = document.querySelector<HTMLButtonElement>('#walkthrough')!;
  const attached = document.querySelector<HTMLInputElement>('#ask-image')!;
  /** The attach button says which image goes with the next message. */
  const showAttached = () => {
    const label = attached.closest('label')!;
    const file = attached.files?.[0];
    label.toggleAttribute('data-attached', file !== undefined);
    label.title = file ? `Attached: ${file.name} (sent with the next message)` : 'Attach an image to the message (for a model that sees images)';
  };

  // Handlers first: whatever the stores do below, the panel answers the person.
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    // One run at a time in a conversation: say what to do, and keep the question in the box.
    const wait = waitBeforeAsking();
    if (wait) {
      appendItem(chat(), 'notice', wait);
      return;
    }
    input.value = '';
    const image = attached.files?.[0];
    attached.value = '';
    showAttached();
    void ask(text, image);
  });
  attached.addEventListener('change', showAttached);
  walkthrough.addEventListener('click', () => {
    if (!isFollowing()) void ask(WALKTHROUGH_PROMPT);
  });
  stop.addEventListener('click', stopFollowedRun);
  document.querySelector('#new-conversation')!.addEventListener('click', () => {
    newConversation();
    chat().replaceChildren();
    timeline().reset();
  });
  showRunning(false);
  timeline();
  // A reload while a run goes on (a card waits): the next page resumes it, and draws these rows first.
  keepTimelineAcrossReloads(() => timeline().events, isFollowing, conversationId);

  await showHistory(chat(), DATABASE, conversationId());
  void refreshLeaves(DATABASE);
}
