// resume-latency: a page reloaded while a run waits for a person's approval, to the approval
// asked again (its `approval_requested` event from `runner.resume`), against a fresh run's first
// event on a page load of its own; both in ms from the page's navigation start. What the page
// does is in its URL, so each phase starts as the page loads, as an app's would:
// `?phase=ask&c=<id>`: a run on conversation <id> that waits for approval of `delete_note`;
// `?phase=resume&c=<id>`: resume it and time the approval asked again (then deny it);
// `?phase=fresh&c=<id>`: a new run on conversation <id>, timed to its first event.
import { createWorkerRunner, defineTool, scriptedEngine, type RunEvent } from '../../../src/worker/index.js';

export interface ResumeState {
  state: 'asked' | 'done' | 'failed';
  /** ms from navigation start to the event timed. */
  ms?: number;
  error?: string;
}

declare global {
  interface Window {
    resumeBench?: ResumeState;
  }
}

const DATABASE = 'ambi-bench-resume';
const params = new URLSearchParams(location.search);
const conversation = params.get('c') ?? 'c';

const deleteNote = defineTool({
  name: 'delete_note',
  description: 'Delete a note',
  parameters: { type: 'object', properties: { id: { type: 'number' } }, required: ['id'] },
  idempotent: false,
  needsApproval: true,
  call: () => 'deleted',
});

// A resumed run asks its model again only after the call is decided: then it answers.
const script = params.get('phase') === 'resume' ? ['Not deleted.'] : [{ toolCalls: [{ name: 'delete_note', arguments: { id: 1 } }] }, 'Deleted.'];
const runner = createWorkerRunner({
  engine: scriptedEngine(script),
  database: DATABASE,
}).tool(deleteNote);

async function main(): Promise<void> {
  const phase = params.get('phase');
  if (phase === 'ask') {
    const run = runner.run('Delete note 1', { conversation });
    for await (const event of run.events) if (event.type === 'approval_requested') break;
    window.resumeBench = { state: 'asked' };
    return;
  }
  const run = phase === 'resume' ? runner.resume(conversation) : runner.run('Delete note 1', { conversation });
  let timed: number | undefined;
  let callId: string | undefined;
  const wanted = (event: RunEvent) => (phase === 'resume' ? event.type === 'approval_requested' : true);
  for await (const event of run.events) {
    if (timed === undefined && wanted(event)) timed = performance.now();
    if (event.type === 'approval_requested') {
      callId = event.call.id;
      break;
    }
  }
  // Leave nothing waiting: the run ends denied.
  if (callId) run.deny(callId, 'bench');
  await run.result;
  window.resumeBench = { state: 'done', ...(timed !== undefined ? { ms: timed } : {}) };
}

main().catch((error: unknown) => {
  window.resumeBench = { state: 'failed', error: String(error) };
});
