import { DuplicateToolError } from '../errors/duplicate-tool-error.js';
import { InvalidToolError } from '../errors/invalid-tool-error.js';
import type { RunEvent } from '../core/run.js';
import type { ToolRegistry } from '../tools/registry.js';
import { checkTool } from '../tools/check-tool.js';
import type { Tool } from '../tools/types.js';
import { errorMessage } from '../errors/error-message.js';
import { checkSchema } from '../validation/check-schema.js';
import { toolArgsCheck } from '../validation/tool-args-check.js';
import type { JsonArgsValidator } from '../validation/types.js';
import { mcpServer, type McpServerConfig } from './config.js';
import { ConnectDeadline, DEFAULT_CONNECT_TIMEOUT_MS } from './connect-deadline.js';
import { mcpTool, withdrawnTool } from './mcp-tool.js';
import { changedTools, definitionKey } from './pinning.js';
import { McpSession } from './session.js';
import type { McpToolDefinition } from './tool-definition.js';
import { serverSchema } from './schema-dialect.js';
import { fitPrompt } from './prompt-budget.js';
import { fitToolName } from './tool-name.js';

/** A live MCP server whose tools are registered. */
export interface McpConnection {
  /** The config's `name`, else the name the server gives itself. */
  readonly name: string;
  /** The registered names (after allow-list, prefix and fitting). */
  readonly tools: string[];
  /** Take the server's current list: changed tools come back, new ones (allowed) are added. */
  refresh(): Promise<void>;
  /** Remove the tools and end the session. */
  close(): Promise<void>;
}

/** Where a connection registers its tools, and whom it tells of a withdrawal (an Agent). */
export interface McpHost {
  readonly registry: ToolRegistry;
  notify(event: RunEvent): void;
}

/** How `agent.mcp()` and `runner.mcp()` connect. */
export interface McpConnectOptions {
  /** Stops connecting: the promise rejects with code `aborted` and nothing is registered. */
  signal?: AbortSignal;
}

/**
 * Connect to `config`'s server and register its tools on `host`, all or none (see `agent.mcp`).
 * Connecting (initialize, then the tool list) is bounded by the config's `timeoutMs` (default
 * 15 s: past it, `mcp_connect_failed`) and by `options.signal` (`aborted`).
 */
export async function connectMcp(host: McpHost, config: McpServerConfig, options: McpConnectOptions = {}): Promise<McpConnection> {
  const checked = mcpServer(config);
  const deadline = new ConnectDeadline(checked.url, checked.timeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS, options.signal);
  let connection: Connection | undefined;
  try {
    const session = await McpSession.open(checked, (tools) => connection?.listed(tools), deadline);
    try {
      connection = new Connection(host, session, checked.name ?? session.serverName ?? new URL(checked.url).host);
      await connection.refresh(deadline);
      return connection;
    } catch (error) {
      await session.close();
      throw error;
    }
  } finally {
    deadline.dispose();
  }
}

class Connection implements McpConnection {
  /** Registered name → the server's name for it. */
  #names = new Map<string, string>();
  /** Server name → the definition fixed at connection (or at the last refresh), as comparable text. */
  #pinned = new Map<string, string>();
  #withdrawn = new Set<string>();
  #closed = false;

  constructor(
    readonly host: McpHost,
    readonly session: McpSession,
    readonly name: string,
  ) {}

  get tools(): string[] {
    return [...this.#names.keys()];
  }

  async refresh(deadline?: ConnectDeadline): Promise<void> {
    const listed = await this.session.listTools(deadline);
    if (this.#closed) return;
    const { config } = this.session;
    const allowed = config.tools;
    const chosen = allowed ? listed.filter((tool) => allowed.includes(tool.name)) : listed;
    const { made, warnings: unusable } = this.#usable(chosen);
    const { kept, warnings: cut } = fitPrompt(this.name, made, config);
    this.#replace(kept.map(({ tool }) => tool));
    this.#names = new Map(kept.map(({ tool, serverName }) => [tool.name, serverName]));
    this.#pinned = new Map(chosen.map((definition) => [definition.name, definitionKey(definition)]));
    this.#withdrawn.clear();
    for (const warning of [...unusable, ...cut]) this.host.notify(warning);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const name of this.#names.keys()) this.host.registry.unregister(name);
    this.#names.clear();
    await this.session.close();
  }

  /** A list the server gave after connection: a pinned tool that changed is withdrawn, with a warning; new tools wait for `refresh()`. */
  listed(tools: readonly McpToolDefinition[]): void {
    if (this.#closed) return;
    const changed = new Set(changedTools(this.#pinned, tools));
    for (const [registered, serverName] of this.#names) {
      if (!changed.has(serverName) || this.#withdrawn.has(registered)) continue;
      const tool = this.host.registry.get(registered);
      if (!tool) continue;
      this.host.registry.withdraw(withdrawnTool(tool, this.name));
      this.#withdrawn.add(registered);
      this.host.notify({
        type: 'warning',
        code: 'mcp_tool_changed',
        message: `The MCP server "${this.name}" changed the definition of "${serverName}" after connection; "${registered}" is withdrawn until connection.refresh()`,
      });
    }
  }

  /**
   * Each definition as a tool, checked as the registry will check it and with its validators
   * compiled in the agent's mode: one this SDK cannot use (a keyword draft-07 lacks, such as
   * `prefixItems`; a `$ref` loop; a bad name or schema) is left out with a `warning` naming
   * it (`mcp_tool_skipped`), and the server's other tools still serve.
   */
  #usable(definitions: readonly McpToolDefinition[]): { made: Array<{ tool: Tool; serverName: string }>; warnings: RunEvent[] } {
    const made: Array<{ tool: Tool; serverName: string }> = [];
    const warnings: RunEvent[] = [];
    for (const definition of definitions) {
      try {
        made.push({ tool: this.#toolFor(definition), serverName: definition.name });
      } catch (error) {
        warnings.push({
          type: 'warning',
          code: 'mcp_tool_skipped',
          message: `The MCP server "${this.name}" offers "${String(definition?.name)}" with a definition this SDK cannot use, so it is left out: ${errorMessage(error)}`,
        });
      }
    }
    return { made, warnings };
  }

  #toolFor(definition: McpToolDefinition): Tool {
    const name = fitToolName(definition.name, this.session.config.prefix);
    const { outputSchema } = definition;
    const check = outputSchema ? this.#outputCheck(name, outputSchema) : undefined;
    const tool = mcpTool(definition, name, this.session, this.session.config, check, () => !this.#withdrawn.has(name));
    checkTool(tool);
    try {
      // Checked as the registry checks it (and cached), here, so one bad tool is left out rather than failing them all.
      checkSchema(tool.parameters);
    } catch (error) {
      throw new InvalidToolError(name, `invalid inputSchema: ${errorMessage(error)}`);
    }
    return tool;
  }

  /** The check of a tool's structured output, in the agent's validation mode: the schema checked now, its validator built as an argument check's is (toolArgsCheck). */
  #outputCheck(name: string, outputSchema: object): JsonArgsValidator {
    const schema = serverSchema(outputSchema);
    const invalid = (error: unknown) => new InvalidToolError(name, `invalid outputSchema: ${errorMessage(error)}`);
    try {
      checkSchema(schema);
    } catch (error) {
      throw invalid(error);
    }
    return toolArgsCheck(schema, this.host.registry.validation, invalid);
  }

  /** This connection's tools become `tools`, all or none: on any clash or invalid definition nothing changes. */
  #replace(tools: readonly Tool[]): void {
    const { registry } = this.host;
    const seen = new Set<string>();
    for (const tool of tools) {
      // Another tool's name, or two server names equal once fitted.
      if (seen.has(tool.name) || (registry.has(tool.name) && !this.#names.has(tool.name))) throw new DuplicateToolError(tool.name);
      seen.add(tool.name);
    }
    const previous = [...this.#names.keys()].map((name) => registry.get(name)).filter((tool): tool is Tool => tool !== undefined);
    for (const tool of previous) registry.unregister(tool.name);
    const added: string[] = [];
    try {
      for (const tool of tools) {
        registry.register(tool);
        added.push(tool.name);
      }
    } catch (error) {
      for (const name of added) registry.unregister(name);
      for (const tool of previous) {
        registry.register(tool);
        // A stand-in stays what it was: not offered.
        if (this.#withdrawn.has(tool.name)) registry.withdraw(tool);
      }
      throw error;
    }
  }
}
