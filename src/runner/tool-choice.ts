import type { ToolChoice } from '../core/types.js';
import type { Message } from '../core/types.js';

/**
 * The tool choice of one request. A forced choice (`required`, `{ name }`) applies to a turn
 * that answers the person; after tool results (or a runtime note) the turn is `auto`, so the
 * model can answer with the results instead of being made to call again until `maxIterations`.
 */
export function effectiveToolChoice(asked: ToolChoice | undefined, messages: readonly Message[]): ToolChoice {
  const choice = asked ?? 'auto';
  if (typeof choice === 'string' && choice !== 'required') return choice;
  const last = messages.at(-1);
  return last?.role === 'user' && last.origin !== 'runtime' ? choice : 'auto';
}
