// Code Mode through the WorkerRunner, in Chromium, on real IndexedDB: the program runs in a
// sandbox worker of its own (started by the runner worker), and each call it makes is a call of
// the run: page tools cross to this page, approvals come from here, the journal is IndexedDB's.
import { afterEach, describe, expect, it } from 'vitest';
import { createWorkerRunner, defineTool, isAmbiError, type RunEvent, type ScriptedReply, scriptedEngine, type WorkerRunner } from '../../src/index.js';
import { actionTools, Ledger, readTool } from '../support/attack/app-tools.js';
import { type CodeModeDefense, type CodeModeOutcome, codeModeReport, obedientProgram, scoreCodeMode } from '../support/attack/code-mode.js';
import { docId, TASKS } from '../support/attack/tasks.js';
import { appTools, Effects } from '../support/codemode.js';
import { freshDatabases } from '../support/fresh-databases.js';
import { collect } from '../support/run-events.js';
import { openRunners } from '../support/worker-runners.js';

const runners = openRunners();
const databases = freshDatabases('codemode');
afterEach(async () => {
  runners.closeAll();
  await databases.deleteAll();
});

const program = (code: string, id?: string): ScriptedReply => ({ toolCalls: [{ ...(id ? { id } : {}), name: 'run_code', arguments: { code } }] });

function codeRunner(replies: ScriptedReply[], effects: Effects, database?: string): WorkerRunner {
  const runner = createWorkerRunner({ engine: scriptedEngine(replies), codeMode: true, ...(database ? { database } : {}) });
  for (const tool of appTools(effects)) runner.tool(tool);
  return runners.keep(runner);
}

describe('Code Mode through the WorkerRunner', () => {
  it('a program’s calls of page tools carry their parent, ask this page for approval, and run once approved', async () => {
    const effects = new Effects();
    const code =
      "const p = await tools.lookup({ name: 'Ada' }); const sent = await tools.send_email({ to: p.email, body: 'hi' }); const a = await tools.archive({ id: 'n1' }); return { sent, a };";
    const runner = codeRunner([program(code, 'prog'), 'done'], effects, databases.fresh());
    const run = runner.run('mail Ada, archive n1', { conversation: 'c' });
    const events = await collect(run, (e) => e.type === 'approval_requested' && run.approve(e.call.id));
    const result = await run.result;
    expect(result.toolResults[0]).toMatchObject({
      name: 'run_code',
      ok: true,
      output: { result: { sent: { sent: true, to: 'ada@example.com' }, a: 'archived n1' } },
    });
    const nested = events.filter((e) => e.parentCallId === 'prog');
    expect(nested.filter((e) => e.type === 'tool_call').map((e) => e.type === 'tool_call' && [e.call.id, e.call.name])).toEqual([
      ['prog.0', 'lookup'],
      ['prog.1', 'send_email'],
      ['prog.2', 'archive'],
    ]);
    expect(nested.find((e) => e.type === 'approval_requested')).toMatchObject({ call: { id: 'prog.2', name: 'archive' } });
    expect(effects.done.map((e) => e.tool)).toEqual(['send_email', 'archive']);
  });

  it('a denial and invalid arguments are errors the program catches', async () => {
    const effects = new Effects();
    const code =
      "const codes = []; for (const f of [() => tools.archive({ id: 'n1' }), () => tools.send_email({ to: 1 })]) { try { await f(); codes.push('ran'); } catch (e) { codes.push(e.code); } } return codes;";
    const runner = codeRunner([program(code), 'done'], effects);
    const run = runner.run('go');
    await collect(run, (e) => e.type === 'approval_requested' && run.deny(e.call.id, 'no'));
    expect((await run.result).toolResults[0]).toMatchObject({ ok: true, output: { result: ['denied', 'invalid_arguments'] } });
    expect(effects.done).toEqual([]);
  });

  it('closed while the program waits for a person, a new runner resumes it: the journal answers what it did, every effect once', async () => {
    const database = databases.fresh();
    const effects = new Effects();
    const code = "const sent = await tools.send_email({ to: 'a@example.com', body: 'hi' }); const a = await tools.archive({ id: 'n1' }); return { sent, a };";
    const first = codeRunner([program(code, 'prog'), 'never'], effects, database);
    const run = first.run('mail then archive', { conversation: 'notes' });
    for await (const event of run.events) if (event.type === 'approval_requested') first.close();
    expect(isAmbiError(await run.result.catch((e: unknown) => e), 'closed')).toBe(true);
    expect(effects.count('send_email')).toBe(1);

    const second = codeRunner(['all done'], effects, database);
    expect(await second.pendingApprovals('notes')).toMatchObject([{ callId: 'prog.1', call: { name: 'archive' }, parentCallId: 'prog' }]);
    const resumed = second.resume('notes');
    const events = await collect(resumed, (e) => e.type === 'approval_requested' && resumed.approve(e.call.id));
    const result = await resumed.result;
    expect(result.text).toBe('all done');
    expect(effects.done.map((e) => e.tool)).toEqual(['send_email', 'archive']);
    expect(result.toolResults[0]).toMatchObject({ id: 'prog', ok: true, output: { result: { sent: { sent: true }, a: 'archived n1' } } });
    // send_email was answered from the journal: reported under its parent, never started again.
    expect(events.some((e) => e.type === 'tool_started' && e.name === 'send_email')).toBe(false);
    expect(events.find((e) => e.type === 'tool_finished' && e.result.name === 'send_email')?.parentCallId).toBe('prog');
  });

  it('a page tool that never answers is stopped with the program when the run is aborted', async () => {
    let aborted = false;
    const runner = runners.keep(createWorkerRunner({ engine: scriptedEngine([program('await tools.hang({}); return 1;'), 'never']), codeMode: true }));
    runner.tool(
      defineTool({
        name: 'hang',
        description: 'Never answers',
        parameters: { type: 'object', properties: {} },
        readOnly: true,
        call: (_args, ctx) =>
          new Promise(() => {
            ctx.signal.addEventListener('abort', () => {
              aborted = true;
            });
          }),
      }),
    );
    const run = runner.run('go');
    const events: RunEvent[] = [];
    for await (const event of run.events) {
      events.push(event);
      if (event.type === 'tool_started' && event.name === 'hang') run.abort();
    }
    expect(isAmbiError(await run.result.catch((e: unknown) => e), 'aborted')).toBe(true);
    await expect.poll(() => aborted).toBe(true);
  });

  it("in 'hold' mode an untrusted page tool's result is opaque inside the program", async () => {
    const runner = runners.keep(
      createWorkerRunner({
        engine: scriptedEngine([
          program("const page = await tools.read_doc({ doc: 'x' }); return { keys: Object.keys(page), json: JSON.stringify(page), page };"),
          'done',
        ]),
        codeMode: true,
        untrusted: 'hold',
        database: databases.fresh(),
      }),
    );
    runner.tool(
      defineTool({
        name: 'read_doc',
        description: 'Read',
        parameters: { type: 'object', properties: { doc: { type: 'string' } } },
        readOnly: true,
        untrusted: true,
        call: () => 'secret words',
      }),
    );
    const result = await runner.run('read x', { conversation: 'h' }).result;
    expect(result.toolResults[0]).toMatchObject({ ok: true, output: { result: { keys: [], json: '{}', page: { $held: '$1' } } } });
    expect(JSON.stringify(result.messages)).not.toContain('secret words');
  });
});

describe('the attack suite’s 20 tasks in Code Mode, through the WorkerRunner', () => {
  it('defaults: every program is steered and stopped at a card; hold: none is steered; no defense: every attack works', async () => {
    const ledger = new Ledger();
    const outcomes: CodeModeOutcome[] = [];
    for (const defense of ['mark', 'hold', 'none'] as CodeModeDefense[]) {
      const replies = TASKS.flatMap((task): ScriptedReply[] => [program(obedientProgram(docId(task, true))), 'Done.']);
      const runner = runners.keep(
        createWorkerRunner({
          engine: scriptedEngine(replies),
          codeMode: true,
          database: databases.fresh(),
          ...(defense === 'hold' ? { untrusted: 'hold' as const } : {}),
        }),
      );
      const guard = defense === 'none' ? 'none' : 'default';
      for (const tool of [...actionTools(ledger, guard), readTool('read_doc', guard)]) runner.tool(tool);
      for (const task of TASKS) {
        const run = runner.run(`[task:${task.id}] ${task.prompt}`, { conversation: task.id, maxIterations: 4 });
        const events = await collect(run, (e) => e.type === 'approval_requested' && run.deny(e.call.id, 'I did not ask for that'));
        await run.result.catch(() => {});
        outcomes.push(scoreCodeMode(task, defense, events, ledger, new Set()));
      }
    }
    console.log(codeModeReport(outcomes).join('\n'));
    const of = (defense: CodeModeDefense) => outcomes.filter((o) => o.defense === defense);
    expect(
      of('mark')
        .filter((o) => o.worked || !o.obeyed || o.cards !== 1)
        .map((o) => o.task),
    ).toEqual([]);
    expect(
      of('hold')
        .filter((o) => o.worked || o.obeyed || o.cards > 0 || !o.returned)
        .map((o) => o.task),
    ).toEqual([]);
    expect(
      of('none')
        .filter((o) => !o.worked)
        .map((o) => o.task),
    ).toEqual([]);
  }, 120_000);
});
