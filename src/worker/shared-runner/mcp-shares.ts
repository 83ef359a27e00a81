import { AmbiError } from '../../errors/ambi-error.js';
import type { McpServerConfig } from '../../mcp/config.js';
import type { McpConnection } from '../../mcp/connection.js';
import type { McpConnectionInfo } from '../wire/protocol.js';
import { canonicalJson } from './canonical-json.js';
import type { Client } from './client.js';

/** One MCP connection of a shared agent and the pages that hold it. */
interface Share {
  id: number;
  key: string;
  connection: Promise<McpConnection>;
  holders: Set<Client>;
}

/**
 * The MCP connections of a shared agent, one per server configuration: pages of several tabs
 * that connect to the same server share one connection (its tools registered once), which closes
 * when the last page holding it closes it or goes.
 */
export class McpShares {
  readonly #byKey = new Map<string, Share>();
  readonly #byId = new Map<number, Share>();
  #last = 0;

  constructor(readonly connect: (config: McpServerConfig) => Promise<McpConnection>) {}

  async open(client: Client, config: McpServerConfig): Promise<McpConnectionInfo> {
    const key = canonicalJson(config);
    let share = this.#byKey.get(key);
    if (!share) {
      const made: Share = { id: ++this.#last, key, connection: this.connect(config), holders: new Set() };
      share = made;
      this.#byKey.set(key, made);
      this.#byId.set(made.id, made);
      made.connection.catch(() => this.#forget(made));
    }
    share.holders.add(client);
    try {
      const connection = await share.connection;
      return { id: share.id, name: connection.name, tools: connection.tools };
    } catch (error) {
      share.holders.delete(client);
      throw error;
    }
  }

  async refresh(client: Client, id: number): Promise<string[]> {
    const connection = await this.#held(client, id).connection;
    await connection.refresh();
    return connection.tools;
  }

  async close(client: Client, id: number): Promise<void> {
    const share = this.#byId.get(id);
    if (!share?.holders.delete(client) || share.holders.size > 0) return;
    this.#forget(share);
    await (await share.connection).close();
  }

  /** Page `client` is gone: the connections only it held close. */
  leave(client: Client): void {
    for (const share of [...this.#byId.values()]) {
      if (share.holders.has(client)) void this.close(client, share.id).catch(() => {});
    }
  }

  #held(client: Client, id: number): Share {
    const share = this.#byId.get(id);
    if (!share?.holders.has(client)) throw new AmbiError('unknown_connection', `No MCP connection with id ${id} (closed?)`);
    return share;
  }

  #forget(share: Share): void {
    if (this.#byKey.get(share.key) === share) this.#byKey.delete(share.key);
    this.#byId.delete(share.id);
  }
}
