// `defineTool({ readOnly })`, the minimal field WebMCP's readOnlyHint maps to: a tool that changes nothing, so it is idempotent too.
import { describe, expect, it } from 'vitest';
import { defineTool, isAmbiError, ToolRegistry } from '../../src/index.js';

const spec = { name: 'look', description: 'Look', parameters: { type: 'object' }, call: () => 1 } as const;

describe('defineTool readOnly', () => {
  it('keeps readOnly on the tool', () => {
    expect(defineTool({ ...spec, readOnly: true, idempotent: true }).readOnly).toBe(true);
  });

  it('makes a read-only tool idempotent when idempotent is left out', () => {
    const tool = defineTool({ ...spec, readOnly: true } as never as Parameters<typeof defineTool>[0]);
    expect(tool.idempotent).toBe(true);
    expect(() => new ToolRegistry().register(tool)).not.toThrow();
  });

  it('refuses readOnly: true with idempotent: false as invalid_tool', () => {
    const tool = defineTool({ ...spec, readOnly: true, idempotent: false });
    let caught: unknown;
    try {
      new ToolRegistry().register(tool);
    } catch (error) {
      caught = error;
    }
    expect(isAmbiError(caught, 'invalid_tool')).toBe(true);
  });

  it('refuses a readOnly that is not a boolean as invalid_tool', () => {
    const tool = { ...defineTool({ ...spec, idempotent: true }), readOnly: 'yes' as unknown as boolean };
    expect(() => new ToolRegistry().register(tool)).toThrow(expect.objectContaining({ code: 'invalid_tool' }));
  });
});
