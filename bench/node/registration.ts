// tools-register: how long registering many tools takes (the schema checked, nothing compiled),
// in-process, for a cold start's budget. Information: its baseline is the same tools' definitions built.
import { Agent, defineTool, scriptedEngine, type Tool } from '../../src/index.js';
import { budgetFigure, type Measurement } from '../lib/stats.js';

const schema = (i: number) =>
  ({
    type: 'object',
    properties: {
      query: { type: 'string', description: `What to look for (tool ${i})` },
      limit: { type: 'integer', minimum: 1, maximum: 100, default: 10 },
      tags: { type: 'array', items: { type: 'string' } },
    },
    required: ['query'],
    additionalProperties: false,
  }) as const;

function tools(count: number): Tool[] {
  return Array.from({ length: count }, (_, i) =>
    defineTool({ name: `search_${i}`, description: `Search collection ${i}`, parameters: schema(i), readOnly: true, idempotent: true, call: () => i }),
  );
}

export async function registration(): Promise<Measurement[]> {
  const times: number[] = [];
  for (let round = 0; round < 12; round++) {
    const list = tools(1000);
    const agent = await Agent.make(scriptedEngine(['done']), { validation: 'no-eval' });
    const start = performance.now();
    for (const tool of list) agent.tool(tool);
    if (round >= 2) times.push(performance.now() - start);
  }
  return [
    {
      name: 'tools-register-1000',
      unit: 'ms',
      baseline: 'none',
      // Information: its value's median and range.
      ...budgetFigure(times),
      target: null,
      note: `agent.tool() of 1,000 tools with a three-property schema each, in-process (Node); 10 rounds`,
    },
  ];
}
