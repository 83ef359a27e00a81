import type { RunnerConfig } from '../wire/protocol.js';
import type { RunnerAgent } from '../runner/runner-agent.js';
import type { Client } from './client.js';
import { McpShares } from './mcp-shares.js';
import { PageTools } from './page-tools.js';

/**
 * One configuration's Agent in the origin's runner: the pages configured alike share it (its
 * engine, its stores, its MCP connections), each with its page tools; a page of another
 * configuration gets an agent of its own.
 */
export class SharedAgent {
  readonly tools: PageTools;
  readonly mcp: McpShares;

  constructor(
    readonly config: RunnerConfig,
    readonly made: RunnerAgent,
    homeTab: (runId: string) => string | undefined,
  ) {
    this.tools = new PageTools(made.agent.registry, homeTab);
    this.mcp = new McpShares((server) => made.agent.mcp(server));
  }

  /** Page `client` is gone (`succeeded`: its tab shows a newer page): its tools and its share of MCP connections go with it. */
  leave(client: Client, succeeded: boolean): void {
    this.tools.leave(client, succeeded);
    this.mcp.leave(client);
  }
}
