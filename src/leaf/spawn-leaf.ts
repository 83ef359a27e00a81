import { checkCount } from '../runner/check-options.js';
import { defineTool } from '../tools/define-tool.js';
import type { Tool, ToolContext } from '../tools/types.js';
import type { UntrustedOutput } from '../call/untrusted-output.js';
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
 * Runs one leaf for a `spawn_leaf` call and resolves with its answer (run-leaf.ts, loaded when a
 * leaf first starts), wrapped as an UntrustedOutput when the leaf read untrusted content.
 */
export type StartLeaf = (task: string, tools: string[] | undefined, ctx: ToolContext, maxDepth: number) => Promise<string | UntrustedOutput>;

/**
 * The `spawn_leaf` tool: `start` runs a sub-agent on a
 * snapshot of the conversation, with the parent's tools minus spawn_leaf, and the tool
 * returns its final answer. Not idempotent: a leaf may have side effects. The parent agent
 * is known only to `start`, so this definition imports nothing of the runner.
 */
export function spawnLeafTool(options: LeafOptions, start: StartLeaf): Tool {
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
      // In hold mode: a held value as the leaf's task would be read by the leaf's model. A task names held ids as text ("$1") instead.
      heldArguments: { task: 'refuse', tools: 'refuse' },
      timeoutMs: options.timeoutMs ?? DEFAULT_LEAF_TIMEOUT_MS,
      call: ({ task, tools }, ctx) => start(task, tools, ctx, maxDepth),
    }),
    delegates: true,
  };
}
