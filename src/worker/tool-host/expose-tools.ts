import * as Comlink from 'comlink';
import { AmbiError } from '../../errors/ambi-error.js';
import { DuplicateToolError } from '../../errors/duplicate-tool-error.js';
import { LazyAbortController } from '../../util/abort-source.js';
import { checkTool } from '../../tools/check-tool.js';
import type { Tool } from '../../tools/types.js';
import { toDescriptor } from '../wire/descriptor.js';
import { serveCall, servedTool, serveRule, serveTarget, type ServedTool } from '../../call/serve.js';
import type { ToolHostApi } from '../wire/protocol.js';
import { outputJson } from '../../call/output-json.js';
import type { ServedOutput } from '../../call/served-output.js';
import { registerTransferHandlers } from '../wire/transfer-handlers.js';
import { fromWireReason } from '../wire/wire-error.js';
import { announceClose } from '../wire/worker-life.js';

/** In a dedicated tool-worker module: serve these tools to a WorkerRunner (`runner.workerTools(...)`). */
export function exposeTools(tools: readonly Tool[], endpoint: Comlink.Endpoint = globalThis as unknown as Comlink.Endpoint): void {
  registerTransferHandlers();
  const byName = new Map<string, ServedTool>();
  for (const tool of tools) {
    checkTool(tool);
    if (byName.has(tool.name)) throw new DuplicateToolError(tool.name);
    byName.set(tool.name, servedTool(tool));
  }
  const find = (name: string): ServedTool => {
    const tool = byName.get(name);
    if (!tool) throw new AmbiError('unknown_tool', `This tool worker has no tool "${name}"`);
    return tool;
  };
  // Each running call's controller, by the key the page gave it; dropped when the call settles.
  const running = new Map<number, LazyAbortController>();
  const withAbort = async <T>(callKey: number, work: (abort: LazyAbortController) => T | Promise<T>): Promise<T> => {
    const controller = new LazyAbortController();
    running.set(callKey, controller);
    try {
      return await work(controller);
    } finally {
      running.delete(callKey);
    }
  };
  const api: ToolHostApi = {
    descriptors: async () => tools.map(toDescriptor),
    // Copied to JSON here, in the tool's worker: Comlink's reply cannot fall back as the page's call
    // wire does when an output that looks plain (a Proxy) refuses to clone, and the copy costs no page time.
    call: (name, args, ctx, callKey) => withAbort(callKey, async (abort) => clonable(name, await serveCall(find(name), args, ctx, abort))),
    abort: async (callKey, reason) => running.get(callKey)?.abort(fromWireReason(reason)),
    needsApproval: (name, args, callKey) => withAbort(callKey, (abort) => serveRule(find(name), args, abort)),
    target: (name, args, callKey) => withAbort(callKey, (abort) => serveTarget(find(name), args, abort)),
  };
  Comlink.expose(api, endpoint);
  if (endpoint === (globalThis as unknown)) announceClose(globalThis as unknown as Parameters<typeof announceClose>[0]);
}

/** A served answer that structured clone takes: its output made JSON (a Map of output and parts was already). */
function clonable(name: string, answer: ServedOutput): ServedOutput {
  return answer instanceof Map ? answer : outputJson(name, answer);
}
