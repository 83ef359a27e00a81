import type { ParseError } from '../parser/types.js';
import type { ToolResult } from '../core/types.js';
import type { ToolMessage, UserMessage } from '../core/types.js';

const RAW_PREVIEW = 300;

/** The message that carries a result back to the model: `{ok, output}` or `{ok, error}` as JSON, cut at `maxChars`. */
export function toolMessage(result: ToolResult, maxChars: number): ToolMessage {
  const body: Record<string, unknown> = result.ok ? { ok: true, output: result.output } : { ok: false, error: result.error };
  if (result.editedArguments !== undefined) {
    // The model must know the call it asked for is not the one that ran.
    body.note = 'The user edited the arguments of this call before approving it; it ran with editedArguments, not the ones you gave.';
    body.editedArguments = result.editedArguments;
  }
  return { role: 'tool', toolCallId: result.id, name: result.name, content: capText(JSON.stringify(body), maxChars) };
}

/** Cut text longer than `maxChars`, with a marker the model can see and act on. */
export function capText(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  return `${text.slice(0, maxChars)}\n[truncated by ambi-web: ${maxChars} of ${text.length} characters shown; ask for less]`;
}

/** The runtime's note about tool calls it could not read, so the model can write them again; cut at `maxChars`, as a result is. */
export function formatErrorMessage(errors: readonly ParseError[], maxChars: number): UserMessage {
  const lines = errors.map((error) => {
    const raw = error.raw.length > RAW_PREVIEW ? `${error.raw.slice(0, RAW_PREVIEW)}…` : error.raw;
    return `- ${error.message}\n  You wrote: ${raw}`;
  });
  const content = `Some tool calls in your last reply could not be read, so they were not run:\n${lines.join('\n')}`;
  // A reply of thousands of empty tags would otherwise come back to the model many times larger.
  return { role: 'user', origin: 'runtime', content: capText(content, maxChars) };
}
