// After a reload (or in a second tab): the conversation's interrupted run comes back. Its waiting
// approvals are listed from the database at once; the run is then resumed, which waits for the
// conversation's lock if another tab is running it, and asks again in this tab only if it gets there.
// While it is resumed it is the run this tab follows: Stop ends it, and a question waits for it.
import { createWorkerRunner, isAmbiError, scriptedEngine } from 'ambi-web/worker';
import { restoreTimeline } from './assistant-panel.js';
import { conversationId, DATABASE } from './conversation.js';
import { beginRun, endRun, type Following, follow } from './followed-run.js';
import { makeRunner } from './make-runner.js';
import { takeKeptTimeline } from './timeline-keep.js';
import { appendItem, asProblem, describeError } from './render.js';
import { loadSettings } from './settings.js';

/** What the offline model says once a resumed run has its results (the scripted walkthrough cannot know them). */
const RESUMED_OFFLINE = ['Done: the request interrupted by the reload was finished.'];

/** Resume the conversation's interrupted run, if it has one; tells the person what happens, never throws. */
export async function resumeInterrupted(chat: HTMLElement): Promise<void> {
  const settings = loadSettings();
  let runner: Awaited<ReturnType<typeof makeRunner>> | undefined;
  let resuming: Following | undefined;
  // Said at once where a conversation is shown: the listing below starts a worker and reads the database first.
  let status = chat.children.length > 0 ? appendItem(chat, 'tool resume', 'Checking for an interrupted run…') : undefined;
  try {
    const conversation = conversationId();
    // Listed by a bare runner on the database: no model is loaded (a local one would download) unless something waits.
    // A store that cannot be read is already told by the history above: nothing is resumed then.
    const lister = createWorkerRunner({ engine: scriptedEngine([]), database: DATABASE, validation: 'no-eval' });
    const pending = await lister
      .pendingApprovals(conversation)
      .catch(() => [])
      .finally(() => lister.close());
    // The rows the page before this one drew of the interrupted run, drawn again before its resumed events.
    const kept = takeKeptTimeline(conversation);
    if (pending.length === 0) {
      status?.remove();
      return;
    }
    if (kept) restoreTimeline(kept);
    const waiting = `Interrupted: ${pending.map((p) => p.call.name).join(', ')} waits for your approval.`;
    status ??= appendItem(chat, 'tool resume', '');
    status.textContent = `${waiting} Resuming…`;
    resuming = beginRun('resume');
    const { signal } = resuming.stop;
    runner = await makeRunner(settings, '', signal, { script: RESUMED_OFFLINE });
    const run = runner.resume(conversation, { signal });
    // The card comes with the run's own approval_requested: never from the listing, so a call answered elsewhere is never asked here.
    await follow(run, false);
    const error = await run.result.then(
      () => undefined,
      (e: unknown) => e,
    );
    status.textContent = isAmbiError(error, 'nothing_to_resume')
      ? 'Interrupted run: it was answered in another tab.'
      : signal.aborted
        ? 'Interrupted run: stopped.'
        : error
          ? 'Interrupted run: it could not be finished (see above).'
          : 'Interrupted run: resumed.';
  } catch (error) {
    if (resuming?.stop.signal.aborted && status) status.textContent = 'Interrupted run: stopped.';
    else appendItem(chat, 'error', describeError(asProblem(error)));
  } finally {
    runner?.close();
    if (resuming) endRun(resuming);
  }
}
