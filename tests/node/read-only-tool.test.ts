// defineTool({ readOnly }): a tool that changes nothing (MCP's and WebMCP's readOnlyHint).
import { describe, expect, it } from 'vitest';
import { defineTool, ToolRegistry, type Tool } from '../../src/index.js';

const base = { description: 'reads', parameters: { type: 'object' } as const, call: () => 'ok' };

describe('defineTool readOnly', () => {
  it('readOnly: true makes the tool idempotent without saying so', () => {
    const tool = defineTool({ name: 'look', readOnly: true, ...base });
    expect(tool).toMatchObject({ readOnly: true, idempotent: true });
    expect(() => new ToolRegistry().register(tool)).not.toThrow();
  });

  it('readOnly: true with idempotent: false is invalid_tool at registration', () => {
    const tool = defineTool({ name: 'contradiction', readOnly: true, idempotent: false, ...base });
    expect(() => new ToolRegistry().register(tool)).toThrow(expect.objectContaining({ code: 'invalid_tool', message: expect.stringContaining('readOnly') }));
  });

  it('a readOnly that is not a boolean is invalid_tool', () => {
    const tool = { ...defineTool({ name: 'odd', idempotent: true, ...base }), readOnly: 'yes' } as unknown as Tool;
    expect(() => new ToolRegistry().register(tool)).toThrow(expect.objectContaining({ code: 'invalid_tool' }));
  });

  it('without readOnly, idempotent is still required', () => {
    const tool = defineTool({ name: 'vague', ...base } as never);
    expect(() => new ToolRegistry().register(tool)).toThrow(expect.objectContaining({ code: 'invalid_tool', message: expect.stringContaining('idempotent') }));
  });
});
