// Hold mode in Chromium, through the WorkerRunner on IndexedDB: the model (served over HTTP to the
// runner worker) never gets a byte of a held value in any raw request body (a canary), held values
// persist with the conversation across a reload, and the answer's held values reach the page.
import { afterAll, describe, expect, inject, it } from 'vitest';
import { createWorkerRunner, defineTool, IndexedDbConversationStore, openAICompatible, type RunEvent, type WorkerRunner } from '../../src/index.js';
import { actionTools, Ledger, READ_PARAMETERS } from '../support/attack/app-tools.js';
import { documentText } from '../support/attack/tasks.js';

const DATABASE = `hold-${crypto.randomUUID()}`;
const CANARY = `CANARY-${crypto.randomUUID()}`;
const base = inject('attackModelUrl');
const opened: WorkerRunner[] = [];

/** A page tool that reads the suite's documents, each with the canary in it (untrusted, read-only). */
const readDoc = defineTool({
  name: 'read_doc',
  description: 'Read a document by its id',
  parameters: READ_PARAMETERS,
  readOnly: true,
  untrusted: true,
  call: ({ doc }: { doc: string }) => documentText(doc).replace('?', `? ${CANARY}`).replace('.', `. ${CANARY}`),
});

/** A runner on the test's database in hold mode; `read` registers the read tool (the page before a reload). */
function runner(ledger: Ledger, read: boolean): WorkerRunner {
  const made = createWorkerRunner({
    engine: openAICompatible({ baseURL: base, model: 'obedient', structuredOutputs: true }),
    database: DATABASE,
    untrusted: 'hold',
  });
  opened.push(made);
  for (const tool of actionTools(ledger, 'hold')) made.tool(tool);
  if (read) made.tool(readDoc);
  return made;
}

/** How many raw bodies the model server read hold `text`: the planner's, and the reader's (inspect_held). */
async function bodiesWith(text: string): Promise<{ planner: number; reader: number }> {
  return (await fetch(`${base}/bodies-with?text=${encodeURIComponent(text)}`)).json();
}

async function played(made: WorkerRunner, prompt: string, conversation: string) {
  const run = made.run(prompt, { conversation, maxIterations: 6 });
  const events: RunEvent[] = [];
  for await (const event of run.events) events.push(event);
  return { events, result: await run.result };
}

afterAll(() => {
  for (const made of opened) made.close();
  indexedDB.deleteDatabase(DATABASE);
});

describe("untrusted: 'hold' through the WorkerRunner, on IndexedDB", () => {
  it('reads, extracts and passes a held value: the tool gets the words, no planner body carries the canary, the reader’s do', async () => {
    const ledger = new Ledger();
    const { events, result } = await played(
      runner(ledger, true),
      "[hold] [task:mail-quote] [doc:mail-quote] [read:read_doc] Send Chloe's question on to boss@mycompany.example.",
      'quote',
    );
    expect(events.filter((e) => e.type === 'approval_requested')).toEqual([]);
    expect(ledger.entries.map((e) => [e.name, e.arguments])).toEqual([
      ['send_email', { to: 'boss@mycompany.example', subject: 'Chloe asks', body: `What time does the Friday review start? ${CANARY}` }],
    ]);
    // What the model read of the page: a handle.
    const handle = result.messages.find((m) => m.role === 'tool' && m.name === 'read_doc')!;
    expect(JSON.parse(String(handle.content))).toMatchObject({ held: '$1', from: 'read_doc', type: 'string' });
    expect(await bodiesWith(CANARY)).toEqual({ planner: 0, reader: 1 });
  });

  it('held values persist with the conversation across a reload: a new runner inspects and acts on what the old one read, and gives its value back', async () => {
    const ledger = new Ledger();
    const before = runner(ledger, true);
    await played(before, '[hold] [task:notes-urgent] [doc:notes-urgent] [read:read_doc] [stage:read] Read document notes-urgent for me.', 'reload');
    await played(before, '[hold] [task:mail-summary] [doc:mail-summary] [read:read_doc] [stage:read] Read document mail-summary for me.', 'summary');
    before.close();
    // The page reloaded: nothing reads documents any more; the conversation's held values are in IndexedDB.
    const after = runner(ledger, false);
    const { events } = await played(after, '[hold] [task:notes-urgent] [doc:notes-urgent] [stage:act] If note n7 is urgent, tag it urgent.', 'reload');
    expect(events.filter((e) => e.type === 'approval_requested')).toEqual([]);
    expect(ledger.entries.map((e) => [e.name, e.arguments])).toEqual([['update_note', { id: 'n7', tag: 'urgent' }]]);
    const summary = await played(after, '[hold] [task:mail-summary] [doc:mail-summary] [stage:act] What does the mail from Ana say?', 'summary');
    expect(summary.result.text).toBe('Done: mail-summary. It says $1.');
    expect(summary.result.held).toEqual([{ id: '$1', from: 'read_doc', value: expect.stringContaining(CANARY) }]);
    // Stored marked, in the worker's database, which the page can read too.
    const store = await IndexedDbConversationStore.open(DATABASE);
    expect((await store.held.list('reload')).map((info) => [info.id, info.from, info.untrusted])).toEqual([['$1', 'read_doc', true]]);
    expect(JSON.stringify(await store.load('reload'))).not.toContain(CANARY);
    expect((await bodiesWith(CANARY)).planner).toBe(0);
  });
});
