// After a reload (or in a second tab): the conversation's interrupted run comes back. Its waiting
// approvals are listed from the database at once; the run is then resumed, which waits for the
// conversation's lock if another tab is running it, and asks again in this tab only if it gets there.
import { isAmbiError } from 'ambi-web/worker';
import { conversationId, follow, makeRunner } from './assistant.js';
import { appendItem, asProblem, describeError } from './render.js';
import { loadSettings } from './settings.js';

/** What the offline model says once a resumed run has its results (the scripted walkthrough cannot know them). */
const RESUMED_OFFLINE = ['Done: the request interrupted by the reload was finished.'];

/** Resume the conversation's interrupted run, if it has one; tells the person what happens, never throws. */
export async function resumeInterrupted(chat: HTMLElement): Promise<void> {
  const settings = loadSettings();
  let runner: Awaited<ReturnType<typeof makeRunner>> | undefined;
  let waiting: HTMLLIElement | undefined;
  try {
    runner = await makeRunner(settings, '', new AbortController().signal, RESUMED_OFFLINE);
    const conversation = conversationId();
    const pending = await runner.pendingApprovals(conversation);
    if (pending.length === 0) return;
    waiting = appendItem(chat, 'tool resume', `Interrupted: ${pending.map((p) => p.call.name).join(', ')} waits for your approval. Resuming…`);
    const run = runner.resume(conversation);
    // The card comes with the run's own approval_requested: never from the listing, so a call answered elsewhere is never asked here.
    await follow(run, false);
    const error = await run.result.then(
      () => undefined,
      (e: unknown) => e,
    );
    waiting.textContent = isAmbiError(error, 'nothing_to_resume') ? 'Interrupted run: it was answered in another tab.' : 'Interrupted run: resumed.';
  } catch (error) {
    appendItem(chat, 'error', describeError(asProblem(error)));
  } finally {
    runner?.close();
  }
}
