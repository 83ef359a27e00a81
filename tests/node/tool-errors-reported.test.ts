// A tool's own failure reaches its developer: `onToolError` gets what the tool threw, stack and
// all, while the model reads only `crashed` and its message. A ToolError is the tool's answer, not its bug.
import { expect, it } from 'vitest';
import { Agent, ChatRunner, defineTool, scriptedEngine, ToolError } from '../../src/index.js';
import type { ToolErrorReport } from '../../src/extend/index.js';

it('tells onToolError what a tool threw, with its stack, and not of a ToolError', async () => {
  const reports: ToolErrorReport[] = [];
  const buggy = defineTool({
    name: 'buggy',
    description: 'x',
    parameters: { type: 'object' },
    idempotent: false,
    call: () => {
      const notes = undefined as unknown as string[];
      return notes.length;
    },
  });
  const refusing = defineTool({
    name: 'refusing',
    description: 'x',
    parameters: { type: 'object' },
    idempotent: false,
    call: () => {
      throw new ToolError('no such note');
    },
  });
  const replies = [
    {
      toolCalls: [
        { id: 'b', name: 'buggy', arguments: {} },
        { id: 'r', name: 'refusing', arguments: {} },
      ],
    },
    'Sorry.',
  ];
  const agent = (await Agent.make(scriptedEngine(replies), { onToolError: (report) => reports.push(report) })).tool(buggy).tool(refusing);
  const result = await new ChatRunner().run(agent, 'go').result;
  expect(result.toolResults.map((r) => (r.ok ? 'ok' : r.error.code))).toEqual(['crashed', 'tool_error']);
  expect(reports).toHaveLength(1);
  expect(reports[0]).toMatchObject({ tool: 'buggy', callId: 'b', attempt: 1 });
  expect(reports[0]!.error).toBeInstanceOf(TypeError);
  expect((reports[0]!.error as Error).stack).toContain('tool-errors-reported.test.ts');
  // The model reads the message, never the stack.
  expect(result.messages.find((m) => m.role === 'tool' && m.toolCallId === 'b')?.content).not.toContain('tool-errors-reported.test.ts');
});

it('a hook that throws does not change the call’s result or stop the run', async () => {
  const agent = (
    await Agent.make(scriptedEngine([{ toolCalls: [{ name: 'buggy', arguments: {} }] }, 'Sorry.']), {
      onToolError: () => {
        throw new Error('the logger is down');
      },
    })
  ).tool(
    defineTool({
      name: 'buggy',
      description: 'x',
      parameters: { type: 'object' },
      idempotent: false,
      call: () => {
        throw new RangeError('bad');
      },
    }),
  );
  const unhandled: unknown[] = [];
  const onError = (error: unknown) => unhandled.push(error);
  process.on('uncaughtException', onError);
  try {
    const result = await new ChatRunner().run(agent, 'go').result;
    expect(result.toolResults[0]).toMatchObject({ ok: false, error: { code: 'crashed' } });
    expect(result.text).toBe('Sorry.');
    await new Promise((resolve) => setTimeout(resolve, 10));
  } finally {
    process.off('uncaughtException', onError);
  }
  expect(unhandled.map((e) => (e as Error).message)).toEqual(['the logger is down']);
});
