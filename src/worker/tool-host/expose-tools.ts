import * as Comlink from 'comlink';
import { AmbiError } from '../../errors/ambi-error.js';
import { DuplicateToolError } from '../../errors/duplicate-tool-error.js';
import { LazyAbortController } from '../../util/abort-source.js';
import { checkTool } from '../../tools/check-tool.js';
import type { Tool } from '../../tools/types.js';
import { toDescriptor } from '../wire/descriptor.js';
import { askHere, callHere } from './call-here.js';
import type { ToolHostApi } from '../wire/protocol.js';
import { registerTransferHandlers } from '../wire/transfer-handlers.js';
import { fromWireReason } from '../wire/wire-error.js';
import { announceClose } from '../wire/worker-life.js';

/** In a dedicated tool-worker module: serve these tools to a WorkerRunner (`runner.workerTools(...)`). */
export function exposeTools(tools: readonly Tool[], endpoint: Comlink.Endpoint = globalThis as unknown as Comlink.Endpoint): void {
  registerTransferHandlers();
  const byName = new Map<string, Tool>();
  for (const tool of tools) {
    checkTool(tool);
    if (byName.has(tool.name)) throw new DuplicateToolError(tool.name);
    byName.set(tool.name, tool);
  }
  const find = (name: string): Tool => {
    const tool = byName.get(name);
    if (!tool) throw new AmbiError('unknown_tool', `This tool worker has no tool "${name}"`);
    return tool;
  };
  // Each running call's controller, by the key the page gave it; dropped when the call settles.
  const running = new Map<number, LazyAbortController>();
  const api: ToolHostApi = {
    descriptors: async () => tools.map(toDescriptor),
    call: async (name, args, ctx, callKey) => {
      const controller = new LazyAbortController();
      running.set(callKey, controller);
      try {
        return await callHere(find(name), args, ctx, controller);
      } finally {
        running.delete(callKey);
      }
    },
    abort: async (callKey, reason) => running.get(callKey)?.abort(fromWireReason(reason)),
    needsApproval: async (name, args) => askHere(find(name), args),
  };
  Comlink.expose(api, endpoint);
  if (endpoint === (globalThis as unknown)) announceClose(globalThis as unknown as Parameters<typeof announceClose>[0]);
}
