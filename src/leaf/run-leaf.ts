import { AmbiError, isAmbiError } from '../errors/ambi-error.js';
import { errorMessage } from '../errors/error-message.js';
import { ToolNotAllowedError } from '../errors/tool-not-allowed-error.js';
import type { RunResult } from '../core/run.js';
import { ChatRunner } from '../runner/chat-runner.js';
import type { RunAgent } from '../runner/run-setup.js';
import type { LeafSnapshot } from '../store/types.js';
import type { Tool, ToolContext } from '../tools/types.js';
import { SPAWN_LEAF, type LeafOptions } from './leaf-options.js';
import { UntrustedOutput } from '../call/untrusted-output.js';
import { spawnLeafTool, type StartLeaf } from './spawn-leaf.js';

/** The agent a leaf is spawned from: a leaf runs on a sibling of it, with some of its tools. */
export interface LeafParent extends RunAgent {
  /** A sibling agent on the same engine, parser and journal, with the given tools and no stored conversations. */
  derive(tools: readonly Tool[]): LeafParent;
  tool(tool: Tool): unknown;
}

/** One call of `spawn_leaf`: snapshot the conversation, run the leaf on it, record how it ended, return its answer. */
export async function runLeaf(
  parent: LeafParent,
  options: LeafOptions,
  depth: number,
  maxDepth: number,
  task: string,
  asked: string[] | undefined,
  ctx: ToolContext,
): Promise<string | UntrustedOutput> {
  const scope = ctx.run;
  if (!scope) throw new AmbiError('leaf_without_run', 'spawn_leaf runs only inside a ChatRunner run');
  const tools = leafTools(parent, options, asked);
  const leafAgent = parent.derive(tools);
  if (depth + 1 < maxDepth) {
    const start: StartLeaf = (subTask, subTools, subCtx, max) => runLeaf(leafAgent, options, depth + 1, max, subTask, subTools, subCtx);
    leafAgent.tool(spawnLeafTool(options, start));
  }
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
    throw new AmbiError('storage_error', `The leaf snapshot could not be written, so the leaf did not start: ${errorMessage(error)}`, { cause: error });
  });

  const runner = new ChatRunner({ concurrency: scope.concurrency, ...(scope.budget ? { budget: scope.budget } : {}) });
  const run = runner.runChild(
    leafAgent,
    task,
    { history: scope.messages, depth: depth + 1, parent: scope },
    {
      runId: snapshot.id,
      signal: ctx.signal,
      ...(options.maxIterations !== undefined ? { maxIterations: options.maxIterations } : {}),
    },
  );
  // Whether untrusted content was in the leaf's context at one of its model turns: its own turns
  // say so (a deeper leaf's exposure reaches it as a marked result, which exposes its next turn).
  // A call that only carries held values (hold mode) says nothing of what the model read.
  let exposed = false;
  for await (const event of run.events) {
    if (event.leafId === undefined && event.type === 'iteration_finished' && event.untrusted) exposed = true;
    if (event.leafId !== undefined) scope.emit(event);
    // The leaf's own start names the call that started it (traces nest the leaf under it).
    else scope.emit(event.type === 'run_started' ? { ...event, leafId: snapshot.id, parentCallId: ctx.callId } : { ...event, leafId: snapshot.id });
  }
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
  // Its answer may repeat what it read: the parent's tool message is marked as the leaf's requests were.
  return exposed ? new UntrustedOutput(result.text) : result.text;
}

/** The parent's tools a leaf gets: never spawn_leaf, narrowed by `leaf({ tools })` and the call's own list. */
function leafTools(parent: LeafParent, options: LeafOptions, asked: string[] | undefined): Tool[] {
  const own = parent.registry.names().filter((name) => name !== SPAWN_LEAF);
  const allowed = options.tools ? own.filter((name) => options.tools!.includes(name)) : own;
  if (asked) {
    const refused = asked.filter((name) => !allowed.includes(name));
    if (refused.length > 0) throw new ToolNotAllowedError(refused, allowed);
  }
  const chosen = asked ? allowed.filter((name) => asked.includes(name)) : allowed;
  return chosen.map((name) => parent.registry.get(name)!);
}
