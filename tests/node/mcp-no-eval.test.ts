// validation: 'no-eval' holds for MCP tools too: neither our validators nor the MCP client's compile code.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent, ChatRunner, mcpServer, scriptedEngine, type ValidationMode } from '../../src/index.js';
import { startEverythingServer, type EverythingServer } from '../support/mcp-everything.js';

let server: EverythingServer;
beforeAll(async () => {
  server = await startEverythingServer();
});
afterAll(() => server.stop());

/** Runs `work` with `Function` replaced by a counting proxy (how ajv compiles: `new Function(...)`); the count. */
async function countCompiles(work: () => Promise<void>): Promise<number> {
  const original = globalThis.Function;
  let compiles = 0;
  globalThis.Function = new Proxy(original, {
    construct(target, args) {
      compiles++;
      return Reflect.construct(target, args);
    },
    apply(target, self, args) {
      compiles++;
      return Reflect.apply(target, self, args);
    },
  });
  try {
    await work();
  } finally {
    globalThis.Function = original;
  }
  return compiles;
}

const structuredCall = async (validation: ValidationMode) => {
  const agent = await Agent.make(scriptedEngine([{ toolCalls: [{ name: 'get-structured-content', arguments: { location: 'Chicago' } }] }, 'done']), {
    validation,
  });
  const connection = await agent.mcp(mcpServer({ url: server.url, tools: ['get-structured-content'] }));
  const result = await new ChatRunner().run(agent, 'go').result;
  expect(result.toolResults[0]).toMatchObject({ ok: true, output: { conditions: expect.any(String) } });
  await connection.close();
};

describe('mcp: no eval in no-eval mode', () => {
  it('auto mode compiles validators (so the count sees compiling)', async () => {
    expect(await countCompiles(() => structuredCall('auto'))).toBeGreaterThan(0);
  });

  it('no-eval mode: connecting, validating the arguments and checking structured output against the outputSchema compile nothing', async () => {
    expect(await countCompiles(() => structuredCall('no-eval'))).toBe(0);
  });
});
