// Shared runners (`createWorkerRunner({ shared: true })`) in real Chromium: one SharedWorker of the
// origin. Each runner here is one page of the origin as the SharedWorker sees it (a port, a page
// lock); closing one is what a closed tab does to it.
import { afterEach, describe, expect, it } from 'vitest';
import { createWorkerRunner, defineTool, isAmbiError, type RunEvent, type ScriptedReply, scriptedEngine, type WorkerRunner } from '../../src/index.js';
import { collect } from '../support/run-events.js';

const open: WorkerRunner[] = [];
afterEach(() => open.splice(0).forEach((runner) => runner.close()));

/** A page of the origin: a shared runner on a scripted engine; `tag` makes its configuration (and so its agent) its own. */
function page(tag: string, replies: ScriptedReply[]): WorkerRunner {
  const runner = createWorkerRunner({ shared: true, engine: scriptedEngine(replies), preamble: `test ${tag}` });
  open.push(runner);
  return runner;
}

describe('a shared runner', () => {
  it('lists a run another page started, which attaches, approves, and both get the result', async () => {
    const tag = crypto.randomUUID();
    const replies: ScriptedReply[] = [{ toolCalls: [{ id: 'c1', name: 'remove', arguments: { note: 'a' } }] }, 'Removed.'];
    const ran: string[] = [];
    const remove = defineTool({
      name: 'remove',
      description: 'Remove a note',
      parameters: { type: 'object', properties: { note: { type: 'string' } } },
      idempotent: false,
      needsApproval: true,
      call: ({ note }) => (ran.push(String(note)), `removed ${note}`),
    });
    const a = page(tag, replies).tool(remove);
    const b = page(tag, replies);
    const run = a.run('remove a');
    const first: RunEvent[] = [];
    for await (const event of run.events) {
      first.push(event);
      if (event.type === 'approval_requested') break;
    }
    const listed = await b.runs();
    const mine = listed.find((info) => info.runId === run.runId);
    expect(mine).toMatchObject({ status: 'waiting', waiting: [{ callId: 'c1', call: { name: 'remove' } }] });
    const attached = b.attach(run.runId);
    const seen: RunEvent[] = [];
    const done = collect(attached, (event) => {
      seen.push(event);
      if (event.type === 'approval_requested') attached.approve('c1');
    });
    const [resultA, resultB] = await Promise.all([run.result, attached.result]);
    await done;
    expect(resultA.text).toBe('Removed.');
    expect(resultB.text).toBe('Removed.');
    expect(ran).toEqual(['a']);
    expect(seen[0]).toMatchObject({ type: 'run_started' });
    expect(seen.filter((e) => e.type === 'approval_requested')).toHaveLength(1);
  });

  it('attaching to an unknown run ends at once with unknown_run', async () => {
    const b = page(crypto.randomUUID(), ['x']);
    const attached = b.attach('no-such-run');
    const events = await collect(attached);
    expect(events).toMatchObject([{ type: 'run_failed', error: { code: 'unknown_run' } }]);
    expect(isAmbiError(await attached.result.catch((e: unknown) => e), 'unknown_run')).toBe(true);
  });
});
