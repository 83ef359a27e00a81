import type { ParseError } from '../parser/types.js';
import type { UserMessage } from '../core/types.js';
import { capText } from '../call/result.js';

const RAW_PREVIEW = 300;

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
