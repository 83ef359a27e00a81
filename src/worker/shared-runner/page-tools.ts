import { AmbiError } from '../../errors/ambi-error.js';
import { DuplicateToolError } from '../../errors/duplicate-tool-error.js';
import type { ToolRegistry } from '../../tools/registry.js';
import type { ApprovalRule, TargetRule, Tool, ToolContext } from '../../tools/types.js';
import { remoteTool } from '../wire/descriptor.js';
import type { ToolDescriptor } from '../wire/protocol.js';
import type { Client } from './client.js';
import { canonicalJson } from './canonical-json.js';

/** One tab's page holding a tool: its remote tool calls that page. */
interface Copy {
  client: Client;
  tool: Tool;
}

/** A page tool's name in a shared runner: the pages that hold it now, or why none does. */
interface Entry {
  /** The definition every copy shares (its descriptor as canonical JSON). */
  definition: string;
  copies: Copy[];
  /** What the agent's registry holds under the name: a call goes to one of the copies. */
  tool: Tool;
  /** No page holds it: its last one closed (`tab_gone`), or its tab's new page did not register it again (`tool_gone`). */
  gone?: { code: 'tab_gone' | 'tool_gone'; tabId: string | undefined };
}

/**
 * The page tools of one shared agent. A tool belongs to the pages that registered it: several
 * tabs may hold the same tool (the same definition; another definition under a taken name is
 * refused, `duplicate_tool`), and a call runs on one of them, the page of the tab that started
 * the run when it holds one, else the one that registered it last. When no open page holds a
 * tool any more it is no longer offered to the model, and a call of it ends `tab_gone`, or
 * `tool_gone` once its tab showed a new page that did not register it again.
 */
export class PageTools {
  readonly #entries = new Map<string, Entry>();

  constructor(
    readonly registry: ToolRegistry,
    /** The tab a run started in (its calls prefer that tab's page). */
    readonly homeTab: (runId: string) => string | undefined,
  ) {}

  /** Page `client` holds the tool `descriptor` describes; throws `duplicate_tool` if the name is taken by something else. */
  add(client: Client, descriptor: ToolDescriptor): void {
    const { name } = descriptor;
    const definition = canonicalJson(descriptor);
    const entry = this.#entries.get(name);
    const copy = { client, tool: remoteTool(descriptor, client.page) };
    if (entry && entry.copies.length > 0) {
      if (entry.copies.some((held) => held.client === client)) throw new DuplicateToolError(name);
      if (entry.definition !== definition) throw new DuplicateToolError(name);
      entry.copies.push(copy);
      return;
    }
    if (entry && entry.definition === definition) {
      // The same tool again (the tab's next page registered it): the same entry, which a call
      // decided before (one waiting for approval, say) holds, goes on, now to this page.
      entry.copies.push(copy);
      delete entry.gone;
      this.registry.unregister(name);
      this.registry.register(entry.tool);
      return;
    }
    const fresh: Entry = { definition, copies: [copy], tool: copy.tool };
    fresh.tool = this.#shared(copy.tool, fresh);
    if (entry) this.registry.unregister(name);
    try {
      this.registry.register(fresh.tool);
    } catch (error) {
      if (entry) this.#withdraw(entry);
      throw error;
    }
    this.#entries.set(name, fresh);
  }

  /** Page `client` takes tool `name` back (tab tools it closed): once no page holds it, the name is free. */
  remove(client: Client, name: string): void {
    const entry = this.#entries.get(name);
    const kept = entry?.copies.filter((copy) => copy.client !== client);
    if (!entry || !kept || kept.length === entry.copies.length) return;
    entry.copies = kept;
    if (kept.length > 0) return;
    this.#entries.delete(name);
    this.registry.unregister(name);
  }

  /**
   * Page `client` is gone: what no other page holds is withdrawn, a call of it `tab_gone`, or
   * `tool_gone` if its tab already shows a newer page (`succeeded`), which did not register it.
   */
  leave(client: Client, succeeded: boolean): void {
    for (const entry of this.#entries.values()) {
      const before = entry.copies.length;
      entry.copies = entry.copies.filter((copy) => copy.client !== client);
      if (before === 0 || entry.copies.length > 0) continue;
      entry.gone = { code: succeeded ? 'tool_gone' : 'tab_gone', tabId: client.identity?.tabId };
      this.#withdraw(entry);
    }
  }

  /** A page of tab `tabId` connected: what the tab's page before it held, and no page holds now, is `tool_gone`. */
  returned(tabId: string): void {
    for (const entry of this.#entries.values()) {
      if (entry.copies.length === 0 && entry.gone?.tabId === tabId) entry.gone.code = 'tool_gone';
    }
  }

  /** No longer offered to the model; a call of it reaches the entry, which says why it cannot run. */
  #withdraw(entry: Entry): void {
    if (!this.registry.has(entry.tool.name)) this.registry.register(entry.tool);
    this.registry.withdraw(entry.tool);
  }

  /** The registry's tool for an entry: the first copy's definition, each request sent to a copy chosen then. */
  #shared(first: Tool, entry: Entry): Tool {
    const rule = first.needsApproval;
    const target = first.target;
    const tool: Tool = {
      ...first,
      call: (args: unknown, ctx: ToolContext) => this.#pick(entry, ctx.run?.runId).tool.call(args, ctx),
    };
    if (typeof rule === 'function') tool.needsApproval = ((args, ctx) => (this.#pick(entry).tool.needsApproval as ApprovalRule)(args, ctx)) as ApprovalRule;
    if (target) tool.target = ((args, ctx) => (this.#pick(entry).tool.target as TargetRule)(args, ctx)) as TargetRule;
    return tool;
  }

  /** The copy a request goes to: the run's own tab's newest page if it holds one, else the last to register; none: why. */
  #pick(entry: Entry, runId?: string): Copy {
    const { copies } = entry;
    const home = runId === undefined ? undefined : this.homeTab(runId);
    const copy = (home !== undefined && copies.findLast((held) => held.client.identity?.tabId === home)) || copies.at(-1);
    if (copy) return copy;
    const name = entry.tool.name;
    if (entry.gone?.code === 'tool_gone')
      throw new AmbiError(
        'tool_gone',
        `The page that held tool "${name}" was left (a navigation or a reload) and the tab's new page did not register it again`,
      );
    throw new AmbiError('tab_gone', `No open page holds tool "${name}": the page that registered it was closed`);
  }
}
