import type { AnswerFormat } from '../../engines/types.js';
import type { ToolChoice } from '../../core/types.js';

/**
 * The answer format of one request, or undefined on a turn that cannot answer. An answering
 * turn is one whose tool choice lets the model answer: `auto` (it may call tools or answer;
 * each engine decides how both fit, see `EngineRequest.output`), `none`, or no tools at all.
 * A forced call (`required`, `{ name }`) is not one.
 */
export function answerFormat(schema: Record<string, unknown>, toolChoice: ToolChoice | undefined): AnswerFormat | undefined {
  if (toolChoice === 'required' || typeof toolChoice === 'object') return undefined;
  return { name: formatName(schema), schema };
}

/** The schema's `title` as OpenAI accepts a format's name (`[a-zA-Z0-9_-]`, at most 64), else `output`. */
function formatName(schema: Record<string, unknown>): string {
  const title = typeof schema.title === 'string' ? schema.title.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64) : '';
  return title || 'output';
}
