import { serveCall, servedTool, serveRule, serveTarget } from '../../call/serve.js';
import { DuplicateToolError } from '../../errors/duplicate-tool-error.js';
import { checkTool } from '../../tools/check-tool.js';
import type { OnToolError, Tool } from '../../tools/types.js';
import type { ToolWorkerSupervisor, WorkerSource, WorkerToolsOptions } from '../tool-host/tool-worker.js';
import { toDescriptor } from '../wire/descriptor.js';
import type { ToolDescriptor, ToolInvoker } from '../wire/protocol.js';
import { reportedInvoker } from './reported-invoker.js';
import type { RunnerSetup } from './runner-setup.js';

/**
 * The tools a WorkerRunner's page serves to its runner worker (its own, its tool workers', a tab's),
 * by name: each registered in the worker as a remote tool (its descriptor), and called here through
 * the pipeline's serving door (src/call/serve.ts), its own failures told to `onToolError`.
 */
export class PageTools {
  /** Every name taken on the page (an MCP connection's tools claim theirs too). */
  readonly names = new Set<string>();
  /** What the page serves to the worker, by tool name. */
  readonly served = new Map<string, ToolInvoker>();
  readonly #supervisors: ToolWorkerSupervisor[] = [];
  /** Tools the worker refused since the last run started: that run fails with why. */
  #refused: unknown[] = [];

  constructor(
    readonly setup: RunnerSetup,
    readonly onToolError: OnToolError | undefined,
    /** A worker call that also rejects when the worker dies or the runner closes. */
    readonly guard: <T>(call: Promise<T>) => Promise<T>,
  ) {}

  /** Add a page tool; the worker registers it at the next sync (a refusal fails the next run). */
  add(tool: Tool): void {
    checkTool(tool);
    if (this.names.has(tool.name)) throw new DuplicateToolError(tool.name);
    this.names.add(tool.name);
    this.served.set(tool.name, this.#invoker(tool));
    this.#register(toDescriptor(tool), (error) => this.#refused.push(error));
  }

  /** The refusals since the last call, taken: what the next run fails with. */
  takeRefusals(): unknown[] {
    return this.#refused.splice(0);
  }

  /** Start a tool worker and add its tools (see `WorkerRunner.workerTools`). */
  async addWorker(source: WorkerSource, options: WorkerToolsOptions): Promise<string[]> {
    // Loaded here, not with the page: an app without tool workers never needs their supervisor.
    const { ToolWorkerSupervisor } = await import('../tool-host/tool-worker.js');
    const supervisor = new ToolWorkerSupervisor(source, options);
    let descriptors: ToolDescriptor[];
    try {
      // The runner worker gets ready meanwhile (a configuration that failed before is tried again).
      [descriptors] = await Promise.all([this.guard(supervisor.start()), this.setup.sync()]);
      const taken = descriptors.find((d) => this.names.has(d.name));
      if (taken) throw new DuplicateToolError(taken.name);
    } catch (error) {
      supervisor.close();
      throw error;
    }
    this.#supervisors.push(supervisor);
    const refused: unknown[] = [];
    for (const descriptor of descriptors) {
      this.names.add(descriptor.name);
      this.served.set(descriptor.name, reportedInvoker(descriptor.name, supervisor.served(descriptor.name), this.onToolError));
      this.#register(descriptor, (error) => refused.push(error));
    }
    await this.setup.sync();
    if (refused.length > 0) throw refused[0];
    return descriptors.map((d) => d.name);
  }

  /** Add page tools all or none; resolves once the runner worker took every one of them. */
  async addAll(tools: readonly Tool[]): Promise<void> {
    const names = new Set<string>();
    for (const tool of tools) {
      checkTool(tool);
      if (this.names.has(tool.name) || names.has(tool.name)) throw new DuplicateToolError(tool.name);
      names.add(tool.name);
    }
    const refused: unknown[] = [];
    for (const tool of tools) {
      this.names.add(tool.name);
      this.served.set(tool.name, this.#invoker(tool));
      this.#register(toDescriptor(tool), (error) => refused.push(error));
    }
    try {
      await this.setup.sync();
    } catch (error) {
      await this.removeAll([...names]).catch(() => {});
      throw error;
    }
    if (refused.length === 0) return;
    await this.removeAll([...names]);
    throw refused[0];
  }

  /** Remove page tools, here and (after the registrations before it) in the runner worker. */
  async removeAll(names: readonly string[]): Promise<void> {
    for (const name of names) {
      this.names.delete(name);
      this.served.delete(name);
      this.setup.remove(name);
    }
    await this.setup.sync(false);
  }

  /** Stop every tool worker (the runner closed or died). */
  closeWorkers(): void {
    for (const supervisor of this.#supervisors) supervisor.close();
  }

  /** How the page runs `tool` for the runner worker: the serving door, its own failures told to `onToolError`. */
  #invoker(tool: Tool): ToolInvoker {
    const served = servedTool(tool);
    const invoker: ToolInvoker = {
      call: (args, ctx, abort) => serveCall(served, args, ctx, abort),
      needsApproval: (args, abort) => serveRule(served, args, abort),
      target: (args, abort) => serveTarget(served, args, abort),
    };
    return reportedInvoker(tool.name, invoker, this.onToolError);
  }

  /** Register a tool in the worker at the next sync; one it refuses is forgotten here and handed to `refused`. */
  #register(descriptor: ToolDescriptor, refused: (error: unknown) => void): void {
    this.setup.add(descriptor, (error) => {
      this.names.delete(descriptor.name);
      this.served.delete(descriptor.name);
      refused(error);
    });
  }
}
