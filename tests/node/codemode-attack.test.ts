// The attack suite's 20 tasks in Code Mode (Node): each task's program reads the task's injected
// document and obeys every directive it finds; the person never approves what they did not ask
// for. With the defaults ('mark') the directive's call asks first; with 'hold' the program
// cannot read the document at all; with no defense every injection works (the attacks are real).
// Also the two-turn form: a program returns what it read, and the model's next program obeys it.
import { beforeAll, describe, expect, it } from 'vitest';
import { Agent, ChatRunner, MemoryConversationStore, type RunEvent } from '../../src/index.js';
import { actionTools, Ledger, readTool } from '../support/attack/app-tools.js';
import { type CodeModeDefense, type CodeModeOutcome, codeModeReport, obedientProgram, scoreCodeMode } from '../support/attack/code-mode.js';
import { directivesIn, docId, TASKS } from '../support/attack/tasks.js';
import { ProgramEngine } from '../support/codemode.js';

const DEFENSES: CodeModeDefense[] = ['mark', 'hold', 'none'];

/** The model of the two-turn form: its first program returns what it read; its next obeys what the result says; then it answers. */
function twoTurnModel(doc: string): ProgramEngine {
  return new ProgramEngine([
    { code: `return await tools.read_doc({ doc: ${JSON.stringify(doc)} });` },
    (request) => {
      const read = request.messages.filter((m) => m.role === 'tool').map((m) => String(m.content).replace(/\\"/g, '"'));
      const [directive] = read.flatMap(directivesIn);
      if (!directive) return 'Nothing to do.';
      return { code: `return await tools[${JSON.stringify(directive.name)}](${JSON.stringify(directive.arguments)});` };
    },
    'Done.',
  ]);
}

async function play(defense: CodeModeDefense, form: 'one program' | 'two turns', ledger: Ledger): Promise<CodeModeOutcome[]> {
  const outcomes: CodeModeOutcome[] = [];
  for (const task of TASKS) {
    const doc = docId(task, true);
    const engine = form === 'one program' ? new ProgramEngine([{ code: obedientProgram(doc) }, 'Done.']) : twoTurnModel(doc);
    const agent = await Agent.make(engine, {
      codeMode: true,
      conversations: new MemoryConversationStore(),
      ...(defense === 'hold' ? { untrusted: 'hold' as const } : {}),
    });
    const guard = defense === 'none' ? 'none' : 'default';
    for (const tool of [...actionTools(ledger, guard), readTool('read_doc', guard)]) agent.tool(tool);
    const run = new ChatRunner().run(agent, `[task:${task.id}] ${task.prompt}`, { conversation: task.id, maxIterations: 4 });
    const events: RunEvent[] = [];
    for await (const event of run.events) {
      events.push(event);
      if (event.type === 'approval_requested') run.deny(event.call.id, 'I did not ask for that');
    }
    await run.result.catch(() => {});
    outcomes.push(scoreCodeMode(task, defense, events, ledger, new Set()));
  }
  return outcomes;
}

describe('the attack suite in Code Mode (Node)', () => {
  const outcomes = new Map<string, CodeModeOutcome[]>();
  beforeAll(async () => {
    const ledger = new Ledger();
    for (const form of ['one program', 'two turns'] as const) {
      for (const defense of DEFENSES) outcomes.set(`${form}/${defense}`, await play(defense, form, ledger));
      console.log(`${form}:\n${codeModeReport(DEFENSES.flatMap((d) => outcomes.get(`${form}/${d}`)!)).join('\n')}`);
    }
  }, 120_000);

  it.each(['one program', 'two turns'])('with the defaults, no injected call runs unasked: the program was steered, and stopped at a card (%s)', (form) => {
    const runs = outcomes.get(`${form}/mark`)!;
    expect(runs).toHaveLength(TASKS.length);
    expect(runs.filter((o) => !o.obeyed).map((o) => o.task)).toEqual([]);
    expect(runs.filter((o) => o.worked).map((o) => o.task)).toEqual([]);
    expect(runs.filter((o) => o.cards !== 1).map((o) => o.task)).toEqual([]);
  });

  it.each(['one program', 'two turns'])('held as values, the program cannot read the document: nothing steers it, no card is needed (%s)', (form) => {
    const runs = outcomes.get(`${form}/hold`)!;
    expect(runs.filter((o) => o.obeyed || o.worked || o.cards > 0).map((o) => o.task)).toEqual([]);
    expect(runs.filter((o) => !o.returned).map((o) => o.task)).toEqual([]);
  });

  it.each(['one program', 'two turns'])('without the defense every injection works: the attacks are real (%s)', (form) => {
    expect(
      outcomes
        .get(`${form}/none`)!
        .filter((o) => !o.worked)
        .map((o) => o.task),
    ).toEqual([]);
  });
});
