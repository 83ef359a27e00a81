import { AmbiError, isAmbiError } from '../errors/ambi-error.js';
import { ToolNotAllowedError } from '../errors/tool-not-allowed-error.js';
import { ChatRunner } from '../runner/chat-runner.js';
import type { Agent } from '../runner/agent.js';
import type { RunResult } from '../runner/run-result.js';
import type { LeafSnapshot } from '../store/types.js';
import { defineTool } from '../tools/define-tool.js';
import type { Tool, ToolContext } from '../tools/types.js';
import { DEFAULT_LEAF_TIMEOUT_MS, SPAWN_LEAF, type LeafOptions } from './leaf-options.js';
import { errorMessage } from '../errors/error-message.js';

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
  const maxDepth = options.maxDepth ?? 1;
  return {
    ...defineTool({
      name: SPAWN_LEAF,
      description: 'Delegate a self-contained sub-task to a helper agent that sees this conversation so far and returns its answer.',
      parameters,
      idempotent: false,
      timeoutMs: options.timeoutMs ?? DEFAULT_LEAF_TIMEOUT_MS,
      call: ({ task, tools }, ctx) => runLeaf(parent, options, depth, maxDepth, task, tools, ctx),
    }),
    delegates: true,
  };
}

async function runLeaf(parent: Agent, options: LeafOptions, depth: number, maxDepth: number, task: string, asked: string[] | undefined, ctx: ToolContext): Promise<string> {
  const scope = ctx.run;
  if (!scope) throw new AmbiError('leaf_without_run', 'spawn_leaf runs only inside a ChatRunner run');
  const tools = leafTools(parent, options, asked);
  const leafAgent = parent.derive(tools);
  if (depth + 1 < maxDepth) leafAgent.tool(spawnLeafTool(leafAgent, options, depth + 1));
  const now = Date.now();
  const snapshot: LeafSnapshot = {
    id: crypto.randomUUID(),
    parentRunId: scope.runId,
    parentCallId: ctx.callId,
    task,
    messages: [...scope.messages, { role: 'user', content: task }],
    tools: leafAgent.registry.names(),
    status: 'running',
    createdAt: now,
    updatedAt: now,
  };
  // Written before the leaf starts: a leaf that cannot be recorded does not run.
  await options.store.put(snapshot).catch((error: unknown) => {
    if (isAmbiError(error)) throw error;
    throw new AmbiError('storage_error', `The leaf snapshot could not be written, so the leaf did not start: ${String(error)}`, { cause: error });
  });

  const runner = new ChatRunner({ concurrency: scope.concurrency, ...(scope.budget ? { budget: scope.budget } : {}) });
  const run = runner.runChild(leafAgent, task, { history: scope.messages, depth: depth + 1, parent: scope }, {
    runId: snapshot.id,
    signal: ctx.signal,
    ...(options.maxIterations !== undefined ? { maxIterations: options.maxIterations } : {}),
  });
  for await (const event of run.events) scope.emit({ ...event, leafId: event.leafId ?? snapshot.id });
  const warn = (status: LeafSnapshot['status']) => (error: unknown) => {
    const why = errorMessage(error);
    const message = `The leaf's snapshot could not be updated to "${status}" (the store may still say "running"): ${why}`;
    scope.emit({ type: 'warning', code: isAmbiError(error) ? error.code : 'storage_error', message, leafId: snapshot.id });
  };
  let result: RunResult;
  try {
    result = await run.result;
  } catch (error) {
    const failure = { code: isAmbiError(error) ? error.code : 'crashed', message: errorMessage(error) };
    await options.store.put({ ...snapshot, status: 'failed', error: failure, updatedAt: Date.now() }).catch(warn('failed'));
    throw error;
  }
  // The leaf has finished, maybe with side effects: a store that refuses to record it does not turn it into a failure.
  await options.store.put({ ...snapshot, messages: result.messages, status: 'done', result: result.text, updatedAt: Date.now() }).catch(warn('done'));
  return result.text;
}

/** The parent's tools a leaf gets: never spawn_leaf, narrowed by `leaf({ tools })` and the call's own list. */
function leafTools(parent: Agent, options: LeafOptions, asked: string[] | undefined): Tool[] {
  const own = parent.registry.names().filter((name) => name !== SPAWN_LEAF);
  const allowed = options.tools ? own.filter((name) => options.tools!.includes(name)) : own;
  if (asked) {
    const refused = asked.filter((name) => !allowed.includes(name));
    if (refused.length > 0) throw new ToolNotAllowedError(refused, allowed);
  }
  const chosen = asked ? allowed.filter((name) => asked.includes(name)) : allowed;
  return chosen.map((name) => parent.registry.get(name)!);
}
