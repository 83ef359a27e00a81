import type { ToolRegistry } from '../tools/registry.js';
import type { ToolResult } from '../core/types.js';
import type { UserMessage } from '../core/types.js';
import type { RunAgent } from './run-setup.js';

/**
 * Leave a run's conversation as it must be when the run stops at a limit (maxIterations, or a
 * token budget). Rolled back to before the run only if nothing in it may have had effects;
 * otherwise kept up to its last batch of results (already stored), with a note that the run
 * stopped, so the model is never told that an effect did not happen and the next run does not repeat it.
 */
export async function stopAtLimit(
  ctx: { conversation?: string; agent: RunAgent; maxIterations: number } | { conversation?: string; agent: RunAgent; maxTokens: number },
  results: readonly ToolResult[],
  startLength: number,
): Promise<void> {
  const { conversation, agent } = ctx;
  if (!conversation) return;
  const store = agent.conversations;
  if (results.some((result) => mayHaveEffects(result, agent.tools.registry))) await store.append(conversation, [limitNote(ctx)]);
  else await store.truncate(conversation, startLength);
}

/** A call that ran (at least one attempt) with a tool that is not idempotent (a leaf's `spawn_leaf` included). */
function mayHaveEffects(result: ToolResult, registry: ToolRegistry): boolean {
  return result.attempts > 0 && registry.get(result.name)?.idempotent === false;
}

function limitNote(limit: { maxIterations: number } | { maxTokens: number }): UserMessage {
  const where =
    'maxIterations' in limit
      ? `at its limit of ${limit.maxIterations} model turns (maxIterations): the tool calls asked for after the results above were not run`
      : `at its token budget of ${limit.maxTokens} (maxTokens): no model request was made after the results above`;
  return { role: 'user', origin: 'runtime', content: `The run stopped here, ${where}. The results above are real: those calls did run.` };
}
