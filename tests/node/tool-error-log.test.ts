// With no `onToolError`, a tool's own throw still leaves a trace in development: logged once per
// tool to the console, its stack included. Development is `process.env.NODE_ENV` neither
// `production` nor `test` (as an app's bundler sets it); elsewhere nothing is logged.
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { Agent, ChatRunner, defineTool, MemorySnapshotStore, scriptedEngine, ToolError } from '../../src/index.js';
import type { ToolErrorReport } from '../../src/extend/index.js';

const saved = process.env.NODE_ENV;
let logged: unknown[][] = [];
beforeEach(() => {
  logged = [];
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void logged.push(args));
});
afterEach(() => {
  vi.restoreAllMocks();
  process.env.NODE_ENV = saved;
});

const buggy = () =>
  defineTool({
    name: 'buggy',
    description: 'A tool with a bug',
    parameters: { type: 'object' },
    idempotent: false,
    call: () => (undefined as unknown as string[]).length,
  });
const refusing = defineTool({
  name: 'refusing',
  description: 'A tool that answers no',
  parameters: { type: 'object' },
  idempotent: false,
  call: () => {
    throw new ToolError('no such note');
  },
});

/** Two replies calling buggy (twice) and refusing, then an answer; the run's tool results. */
async function runBuggy(options: { onToolError?: (report: ToolErrorReport) => void } = {}) {
  const replies = [
    {
      toolCalls: [
        { id: 'b1', name: 'buggy', arguments: {} },
        { id: 'r', name: 'refusing', arguments: {} },
      ],
    },
    { toolCalls: [{ id: 'b2', name: 'buggy', arguments: {} }] },
    'Sorry.',
  ];
  const agent = (await Agent.make(scriptedEngine(replies), options)).tool(buggy()).tool(refusing);
  return (await new ChatRunner().run(agent, 'go').result).toolResults.map((r) => (r.ok ? 'ok' : r.error.code));
}

it('in development, logs the first throw of a tool once, with the thrown error and what to do', async () => {
  process.env.NODE_ENV = 'development';
  expect(await runBuggy()).toEqual(['crashed', 'tool_error', 'crashed']);
  expect(logged).toHaveLength(1);
  const [message, error] = logged[0]!;
  expect(message).toContain('the tool "buggy" threw (call b1, attempt 1)');
  expect(message).toContain('`crashed`');
  expect(message).toContain('onToolError');
  expect(error).toBeInstanceOf(TypeError);
  expect((error as Error).stack).toContain('tool-error-log.test.ts');
});

it('with NODE_ENV unset (plain Node), logs too', async () => {
  delete process.env.NODE_ENV;
  await runBuggy();
  expect(logged).toHaveLength(1);
});

it.each(['production', 'test'])('with NODE_ENV=%s, logs nothing', async (mode) => {
  process.env.NODE_ENV = mode;
  expect(await runBuggy()).toEqual(['crashed', 'tool_error', 'crashed']);
  expect(logged).toEqual([]);
});

it("an app's own onToolError replaces the log, and hears every throw", async () => {
  process.env.NODE_ENV = 'development';
  const reports: ToolErrorReport[] = [];
  await runBuggy({ onToolError: (report) => reports.push(report) });
  expect(logged).toEqual([]);
  expect(reports.map((r) => r.callId)).toEqual(['b1', 'b2']);
});

it("a leaf's calls share the parent's log: one line per tool in all", async () => {
  process.env.NODE_ENV = 'development';
  const agent = (
    await Agent.make(
      scriptedEngine([
        { toolCalls: [{ id: 'p', name: 'buggy', arguments: {} }] },
        { toolCalls: [{ id: 'l', name: 'spawn_leaf', arguments: { task: 'try again' } }] },
        { toolCalls: [{ id: 'lb', name: 'buggy', arguments: {} }] },
        'The leaf failed too.',
        'Sorry.',
      ]),
    )
  ).tool(buggy());
  agent.leaf({ store: new MemorySnapshotStore() });
  const { toolResults } = await new ChatRunner().run(agent, 'go').result;
  // The leaf ran, and its own call of buggy crashed: its answer says so.
  expect(toolResults.map((r) => r.name)).toEqual(['buggy', 'spawn_leaf']);
  expect(toolResults[1]).toMatchObject({ ok: true, output: 'The leaf failed too.' });
  expect(logged).toHaveLength(1);
});
