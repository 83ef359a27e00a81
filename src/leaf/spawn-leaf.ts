import type { Agent } from '../runner/agent.js';
import { checkCount } from '../runner/check-options.js';
import { defineTool } from '../tools/define-tool.js';
import type { Tool } from '../tools/types.js';
import { DEFAULT_LEAF_TIMEOUT_MS, SPAWN_LEAF, type LeafOptions } from './leaf-options.js';

const parameters = {
  type: 'object',
  properties: {
    task: { type: 'string', minLength: 1, description: 'What the leaf must do, self-contained' },
    tools: { type: 'array', items: { type: 'string' }, description: 'Tool names the leaf may use (default: all allowed)' },
  },
  required: ['task'],
  additionalProperties: false,
} as const;

/**
 * The `spawn_leaf` tool of `parent` at `depth` (0 for a top-level agent): runs a sub-agent
 * on a snapshot of the conversation, with the parent's tools minus spawn_leaf, and
 * returns its final answer. Not idempotent: a leaf may have side effects.
 */
export function spawnLeafTool(parent: Agent, options: LeafOptions, depth = 0): Tool {
  // Checked before the tool exists: `0` or `1.5` once let leaves run, or delegate a level too deep.
  checkCount('maxDepth', options.maxDepth);
  checkCount('maxIterations', options.maxIterations);
  const maxDepth = options.maxDepth ?? 1;
  return {
    ...defineTool({
      name: SPAWN_LEAF,
      description: 'Delegate a self-contained sub-task to a helper agent that sees this conversation so far and returns its answer.',
      parameters,
      idempotent: false,
      timeoutMs: options.timeoutMs ?? DEFAULT_LEAF_TIMEOUT_MS,
      // The leaf's code loads when a leaf first starts: a runner whose model never delegates never fetches it.
      call: async ({ task, tools }, ctx) => (await import('./run-leaf.js')).runLeaf(parent, options, depth, maxDepth, task, tools, ctx),
    }),
    delegates: true,
  };
}
