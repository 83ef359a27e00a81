import { describe, expect, test } from 'vitest';
import { Agent } from '../../src/agent/agent.js';
import { ChatRunner } from '../../src/runner/chat-runner.js';
import { defineTool } from '../../src/tools/define-tool.js';
import { scriptedEngine } from '../../src/engines/scripted/scripted.js';
import type { RunEvent } from '../../src/core/run.js';

const program = (code: string) => ({ toolCalls: [{ name: 'run_code', arguments: { code } }] });

describe('smoke', () => {
  test('runs', async () => {
    const add = defineTool({ name: 'add', description: 'Add', idempotent: true, parameters: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] }, call: ({ a, b }) => a + b });
    const agent = (await Agent.make(scriptedEngine([program('const x = await tools.add({ a: 1, b: 2 }); return x * 10;'), 'done']), { codeMode: true })).tool(add);
    const run = new ChatRunner().run(agent, 'go');
    const events: RunEvent[] = [];
    for await (const e of run.events) events.push(e);
    const result = await run.result;
    console.log(JSON.stringify(events.filter((e) => e.type !== 'text_delta'), null, 1).slice(0, 3000));
    expect(result.text).toBe('done');
  });
});
