// The run this tab follows, a question or a run resumed after a reload: one at a time. While it
// goes on, Stop aborts it and a new question is told what it waits for; `follow` draws its events
// in the chat and the timeline until it ends.
import type { Run } from 'ambi-web/worker';
import { ApprovalCards } from './approval-cards.js';
import { chat, showStatus, timeline } from './assistant-panel.js';
import { DATABASE } from './conversation.js';
import { InputCards } from './input-cards.js';
import { refreshLeaves } from './leaves-view.js';
import { appendItem, describeError, growLast } from './render.js';
import { showStats } from './stats-view.js';

/** The run this tab follows, a question or a run resumed after a reload: Stop aborts it, and a question waits for it. */
export interface Following {
  kind: 'ask' | 'resume';
  stop: AbortController;
}
let following: Following | undefined;
/** The approval cards of the run followed now (one asks the person to answer before sending). */
let cardsShown: ApprovalCards | undefined;

/** Begin following a run: the page shows it running and Stop aborts `stop`. */
export function beginRun(kind: Following['kind']): Following {
  following = { kind, stop: new AbortController() };
  showRunning(true);
  return following;
}

/** The run followed ended. */
export function endRun(ended: Following): void {
  if (following !== ended) return;
  following = undefined;
  showRunning(false);
}

/** Whether a run is followed now (a reload then keeps its timeline for the next page). */
export function isFollowing(): boolean {
  return following !== undefined;
}

/** Stop the run followed now, if there is one. */
export function stopFollowedRun(): void {
  following?.stop.abort('Stopped by the person');
}

/** What a new question must wait for, in words (undefined: nothing, it can be sent). */
export function waitBeforeAsking(): string | undefined {
  if (!following) return undefined;
  return cardsShown?.waiting
    ? 'Answer the card above first (or Stop the run).'
    : following.kind === 'resume'
      ? 'The interrupted run above is still being resumed: wait for it, or Stop it.'
      : 'Wait for this answer, or Stop it.';
}

/** The walkthrough and Stop buttons, and the page's `data-run`, say whether a run goes on. */
export function showRunning(running: boolean): void {
  document.querySelector<HTMLButtonElement>('#walkthrough')!.disabled = running;
  document.querySelector<HTMLButtonElement>('#stop')!.disabled = !running;
  document.body.dataset.run = running ? 'running' : 'idle';
}

/**
 * Follow a run in the chat and the timeline until it ends. Approval cards, a leaf's too (the
 * person answers for it through this run), are retired when their run ends. Returns false if
 * the runner cannot answer again (its worker is gone).
 */
export async function follow(run: Run, loadingModel: boolean): Promise<boolean> {
  const cards = new ApprovalCards(chat(), run);
  const questions = new InputCards(chat(), run);
  cardsShown = cards;
  let usable = true;
  let bubble: HTMLLIElement | undefined;
  try {
    for await (const event of run.events) {
      // A local model loads in the worker on the first request: say so until it speaks.
      if (loadingModel) {
        if (event.type === 'run_started' && !event.leafId) showStatus('Loading the model in the worker…');
        if (event.type === 'text_delta' || event.type === 'tool_call' || event.type === 'run_failed') showStatus(undefined);
      }
      // Chrome's built-in model downloading before its first answer.
      if (event.type === 'model_download') showStatus(`Downloading Chrome's built-in model: ${Math.round((100 * event.loaded) / (event.total || 1))}%`);
      if (event.type === 'text_delta' || event.type === 'tool_call') showStatus(undefined);
      timeline().push(event);
      if (event.type === 'tool_finished') showStats(event.result);
      if (event.type === 'approval_requested') cards.ask(event.call, event.leafId, event.untrusted);
      if (event.type === 'input_requested') questions.ask(event);
      if (event.leafId) {
        if (event.type === 'run_started' || event.type === 'run_finished' || event.type === 'run_failed') void refreshLeaves(DATABASE);
        if (event.type === 'run_finished' || event.type === 'run_failed') cards.retire(event.leafId);
        continue;
      }
      if (event.type === 'text_delta') {
        // The answer's last lines stay in view as it grows (unless the person scrolled up to read).
        const growing = bubble;
        if (growing) growLast(chat(), () => growing.append(event.text));
        else bubble = appendItem(chat(), 'assistant', event.text);
      } else if (event.type === 'tool_call') {
        bubble = undefined;
        appendItem(chat(), 'tool', `→ ${event.call.name} ${JSON.stringify(event.call.arguments)}`);
      } else if (event.type === 'run_failed') {
        appendItem(chat(), 'error', describeError(event.error));
        if (event.error.code === 'worker_crashed' || event.error.code === 'closed') usable = false;
      }
    }
    await run.result.catch(() => undefined);
  } finally {
    cards.retire();
    questions.retire();
    if (cardsShown === cards) cardsShown = undefined;
  }
  return usable;
}
