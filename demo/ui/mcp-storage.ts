// What the demo keeps of the MCP servers the person added. localStorage holds only what is no
// secret: the server's URL without its query, and its tools' prefix. A bearer token and the
// URL's query (a `?key=…` is a credential as often as not) stay in this tab, in sessionStorage.
import { type McpServerConfig, mcpServer } from 'ambi-web/worker';

/** What is kept of a server (localStorage): never its token nor its query. */
export interface SavedServer {
  id: string;
  /** The server's URL without query or fragment. */
  url: string;
  /** Its tools' names become `${prefix}_${name}`, so two servers (or a demo tool) never clash. */
  prefix: string;
  /** The person wants to approve every call of this server, whatever its annotations say. */
  ask?: boolean;
  /** The URL had a query, kept in sessionStorage: gone with the tab that added it. */
  query?: true;
}

const SERVERS_KEY = 'ambi-demo:mcp-servers';
/** How many prefixes were ever handed out here: a prefix is never given again (see nextPrefix). */
const PREFIX_COUNT_KEY = 'ambi-demo:mcp-prefix-count';
const tokenKey = (id: string) => `ambi-demo:mcp-token:${id}`;
const queryKey = (id: string) => `ambi-demo:mcp-query:${id}`;
const PREFIX = /^mcp([1-9][0-9]{0,8})?$/;

/** The servers listed, in the order added. An entry an older demo saved with its query in localStorage has the query moved to this tab. */
export function savedServers(): SavedServer[] {
  let saved: unknown;
  try {
    saved = JSON.parse(localStorage.getItem(SERVERS_KEY) ?? '[]');
  } catch {
    return [];
  }
  if (!Array.isArray(saved)) return [];
  const servers = saved.filter(
    (s): s is SavedServer => typeof s?.id === 'string' && typeof s?.url === 'string' && typeof s?.prefix === 'string' && PREFIX.test(s.prefix),
  );
  if (servers.some((server) => withoutQuery(server.url) !== server.url)) saveServers(servers.map(moveQuery));
  return servers.map((server) => (withoutQuery(server.url) === server.url ? server : moveQuery(server)));
}

function saveServers(servers: SavedServer[]): void {
  localStorage.setItem(SERVERS_KEY, JSON.stringify(servers));
}

/** Add a server for `url` (its query, and `token`, kept in this tab only), with a prefix never used before here. */
export function addServer(url: string, token: string, ask: boolean): SavedServer {
  const parsed = new URL(url);
  const servers = savedServers();
  const server: SavedServer = {
    id: crypto.randomUUID(),
    url: withoutQuery(url),
    prefix: nextPrefix(servers),
    ...(ask ? { ask: true } : {}),
    ...(parsed.search ? { query: true as const } : {}),
  };
  if (parsed.search) sessionStorage.setItem(queryKey(server.id), parsed.search);
  if (token) sessionStorage.setItem(tokenKey(server.id), token);
  saveServers([...servers, server]);
  return server;
}

/** Remove a server: its entry, its token and its query. Its prefix is not given again. */
export function removeServer(id: string): void {
  saveServers(savedServers().filter((s) => s.id !== id));
  sessionStorage.removeItem(tokenKey(id));
  sessionStorage.removeItem(queryKey(id));
}

/** Whether this tab holds a token for the server. */
export function hasToken(server: SavedServer): boolean {
  return sessionStorage.getItem(tokenKey(server.id)) !== null;
}

/** The server's whole URL, query included, or undefined when its query stayed in another tab. */
export function fullUrl(server: SavedServer): string | undefined {
  if (!server.query) return server.url;
  const query = sessionStorage.getItem(queryKey(server.id));
  return query === null ? undefined : `${server.url}${query}`;
}

/** The config to connect with; throws when the server's URL cannot be made whole in this tab. */
export function configOf(server: SavedServer): McpServerConfig {
  const url = fullUrl(server);
  if (url === undefined) throw new Error('its URL had a query (it may hold a key), kept only in the tab that added it: remove it and add it again');
  const token = sessionStorage.getItem(tokenKey(server.id));
  return mcpServer({
    url,
    prefix: server.prefix,
    ...(token ? { headers: { Authorization: `Bearer ${token}` } } : {}),
    ...(server.ask ? { policy: { '*': { needsApproval: true } } } : {}),
  });
}

/**
 * `mcp`, then `mcp2`, `mcp3`…, never one handed out before here, even to a server since removed:
 * a standing "Always allow" given to `mcp_delete` of a removed server must not pass to the
 * `mcp_delete` of the next server added.
 */
function nextPrefix(servers: SavedServer[]): string {
  const listed = servers.map((s) => Number(PREFIX.exec(s.prefix)?.[1] ?? 1));
  const count = Math.max(Number(localStorage.getItem(PREFIX_COUNT_KEY)) || 0, ...listed) + 1;
  localStorage.setItem(PREFIX_COUNT_KEY, String(count));
  return count === 1 ? 'mcp' : `mcp${count}`;
}

function moveQuery(server: SavedServer): SavedServer {
  const { search } = new URL(server.url);
  if (search) sessionStorage.setItem(queryKey(server.id), search);
  return { ...server, url: withoutQuery(server.url), ...(search ? { query: true as const } : {}) };
}

function withoutQuery(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return url;
  }
}
