// How a typed answer is read, and what the model is told about a wrong one.
import type { UserMessage } from '../../core/types.js';
import { errorMessage } from '../../errors/error-message.js';
import { capText } from '../../call/result.js';

/** The answer checked: the value to give back, or what was wrong with it, for the model. */
export type OutputCheck = { ok: true; value: unknown } | { ok: false; problems: string[] };

/** Deeper answers are refused before validation, as tool arguments are: a validator must not recurse without end. */
const MAX_DEPTH = 64;

/** Parse the answer as JSON (a whole-answer Markdown fence is allowed), then validate it; problems are worded for the answer. */
export async function parsed(text: string, validate: (value: unknown) => OutputCheck | Promise<OutputCheck>): Promise<OutputCheck> {
  let value: unknown;
  try {
    value = JSON.parse(unfenced(text));
  } catch (error) {
    return { ok: false, problems: [`the answer is not JSON (${errorMessage(error)})`] };
  }
  if (depthOver(value, MAX_DEPTH)) return { ok: false, problems: [`the answer is nested more than ${MAX_DEPTH} levels deep`] };
  const result = await validate(value);
  // The validators word problems for tool arguments; here the whole value is the answer.
  return result.ok ? result : { ok: false, problems: result.problems.map((problem) => problem.replace(/^arguments\b/, 'the answer')) };
}

/** The text inside a fence that wraps the whole answer (```json ... ```), else the text itself. */
function unfenced(text: string): string {
  const fenced = /^\s*```[a-zA-Z]*\s*\n([\s\S]*?)\n?\s*```\s*$/.exec(text);
  return fenced ? fenced[1]! : text;
}

/** Whether `value` nests deeper than `max` arrays or objects (iterative: the value may be deep enough to overflow a recursion). */
function depthOver(value: unknown, max: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (typeof item !== 'object' || item === null) continue;
    if (depth >= max) return true;
    for (const child of Object.values(item)) stack.push([child, depth + 1]);
  }
  return false;
}

/** The runtime's note after an answer that did not match, so the model can answer again; cut at `maxChars`, as a result is. */
export function outputNote(problems: readonly string[], maxChars: number): UserMessage {
  const content = `Your answer does not match the output schema:\n${problems.map((problem) => `- ${problem}`).join('\n')}\nAnswer again with only JSON that matches the schema.`;
  return { role: 'user', origin: 'runtime', content: capText(content, maxChars) };
}
