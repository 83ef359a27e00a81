// A page of the shared-runner test origin (e2e/shared-runner.spec.ts): one shared runner on an
// OpenAI-compatible model (the fake server of e2e/fake-openai, at `?api=`), the page tools the
// URL names (`?tools=count,remove,stall`), and `window.shared` for the test to drive it. What a
// tool does is kept in localStorage, which every tab and page of the origin sees, so the test can
// count how often each ran. `?noshared` makes this a browser without SharedWorker (one tab leads);
// `?db=` gives the runner a database (a run the leading tab ran is resumed from it).
import { createWorkerRunner, defineTool, openAICompatible, type Run, type RunEvent, type RunInfo, type Tool } from 'ambi-web/worker';

const params = new URLSearchParams(location.search);
if (params.has('noshared')) Reflect.deleteProperty(globalThis, 'SharedWorker');

/** Add one to a localStorage counter of the origin; its new value. */
function bump(key: string): number {
  const next = Number(localStorage.getItem(key) ?? '0') + 1;
  localStorage.setItem(key, String(next));
  return next;
}

const tools: Record<string, Tool> = {
  count: defineTool({
    name: 'count',
    description: 'Count one more',
    parameters: { type: 'object', properties: {} },
    idempotent: false,
    call: () => bump('ran:count'),
  }),
  remove: defineTool({
    name: 'remove',
    description: 'Remove a note',
    parameters: { type: 'object', properties: { note: { type: 'string' } }, required: ['note'] },
    idempotent: false,
    needsApproval: true,
    call: ({ note }) => `removed ${note} (${bump('ran:remove')})`,
  }),
  stall: defineTool({
    name: 'stall',
    description: 'Wait for the page',
    parameters: { type: 'object', properties: {} },
    idempotent: false,
    call: () => {
      bump('ran:stall');
      return new Promise<never>(() => {});
    },
  }),
};

const database = params.get('db');
const runner = createWorkerRunner({
  shared: true,
  engine: openAICompatible({ baseURL: params.get('api') ?? '', model: 'fake' }),
  ...(database ? { database } : {}),
});
for (const name of (params.get('tools') ?? '').split(',')) {
  const tool = tools[name];
  if (tool) runner.tool(tool);
}

/** What this page saw of each run it follows: its events, and how it ended. */
const followed = new Map<string, { run: Run; events: RunEvent[]; ended?: { text: string; toolResults: unknown[] } | { error: string } }>();

function follow(run: Run): string {
  const seen: { run: Run; events: RunEvent[]; ended?: { text: string; toolResults: unknown[] } | { error: string } } = { run, events: [] };
  followed.set(run.runId, seen);
  void (async () => {
    for await (const event of run.events) seen.events.push(event);
  })();
  run.result.then(
    ({ text, toolResults }) => (seen.ended = { text, toolResults: toolResults.map((r) => ({ ...r })) }),
    (error: { code?: string }) => (seen.ended = { error: error.code ?? String(error) }),
  );
  return run.runId;
}

const api = {
  start: (input: string, conversation?: string) => follow(runner.run(input, conversation ? { conversation } : {})),
  attach: (runId: string) => follow(runner.attach(runId)),
  runs: (): Promise<RunInfo[]> => runner.runs(),
  approve: (runId: string, callId: string) => followed.get(runId)?.run.approve(callId),
  events: (runId: string) => followed.get(runId)?.events ?? [],
  /** The text deltas this page saw of a run, joined. */
  text: (runId: string) =>
    (followed.get(runId)?.events ?? []).flatMap((event) => (event.type === 'text_delta' && event.leafId === undefined ? [event.text] : [])).join(''),
  ended: (runId: string) => followed.get(runId)?.ended,
};

declare global {
  interface Window {
    shared: typeof api;
  }
}
window.shared = api;
// Ready once the runner is configured and holds this page's tools.
void runner.runs().then(
  () => (document.body.dataset.ready = 'true'),
  (error: { code?: string }) => (document.body.dataset.ready = `failed: ${error.code ?? String(error)}`),
);
