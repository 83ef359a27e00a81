import type { RunEvent } from '../core/run.js';
import type { Tool } from '../tools/types.js';

/** The longest tool description a server may show the model, when its config says nothing. */
export const DEFAULT_MAX_DESCRIPTION_CHARS = 2_000;
/** What one server's tools may put in every request, when its config says nothing: about 10 000 tokens. */
export const DEFAULT_MAX_PROMPT_CHARS = 40_000;

/** How many names a warning lists before it says "and N more". */
const NAMES_SHOWN = 10;

/**
 * What of a server's tools goes in every request, capped: each description cut to
 * `maxDescriptionChars`, then the tools, in the server's order, while their names,
 * descriptions and parameter schemas fit in `maxPromptChars` (a tool that does not fit is
 * left out; a smaller one after it may still fit). A 100 KB description must not make every
 * run fail with `context_overflow`, even runs that need no tool. One warning per kind of cut.
 */
export function fitPrompt<T extends { tool: Tool }>(
  server: string,
  made: readonly T[],
  limits: { maxDescriptionChars?: number; maxPromptChars?: number },
): { kept: T[]; warnings: RunEvent[] } {
  const maxDescription = limits.maxDescriptionChars ?? DEFAULT_MAX_DESCRIPTION_CHARS;
  const budget = limits.maxPromptChars ?? DEFAULT_MAX_PROMPT_CHARS;
  const cut: string[] = [];
  const left: string[] = [];
  const kept: T[] = [];
  let used = 0;
  for (const entry of made) {
    const { tool } = entry;
    if (tool.description.length > maxDescription) {
      tool.description = `${tool.description.slice(0, maxDescription - 1)}…`;
      cut.push(tool.name);
    }
    const size = tool.name.length + tool.description.length + JSON.stringify(tool.parameters).length;
    if (used + size > budget) {
      left.push(tool.name);
      continue;
    }
    used += size;
    kept.push(entry);
  }
  const warnings: RunEvent[] = [];
  if (cut.length > 0) {
    warnings.push({
      type: 'warning',
      code: 'mcp_description_cut',
      message: `The MCP server "${server}" gave descriptions longer than ${maxDescription} characters (maxDescriptionChars); cut: ${listed(cut)}`,
    });
  }
  if (left.length > 0) {
    warnings.push({
      type: 'warning',
      code: 'mcp_tool_skipped',
      message: `The MCP server "${server}" offers more than its tools may put in a request (maxPromptChars: ${budget} characters); left out: ${listed(left)}`,
    });
  }
  return { kept, warnings };
}

function listed(names: readonly string[]): string {
  const shown = names.slice(0, NAMES_SHOWN).map((name) => `"${name}"`);
  return names.length > NAMES_SHOWN ? `${shown.join(', ')} and ${names.length - NAMES_SHOWN} more` : shown.join(', ');
}
