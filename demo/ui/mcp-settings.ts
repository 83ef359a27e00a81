// Settings → MCP servers: the person adds a Streamable HTTP server (and a bearer token, kept in
// sessionStorage like the API key), sees its tools with their policies, and removes it. The
// assistant's runner connects to every listed server (the connection lives in the runner worker).
import { type McpServerConfig, mcpServer, redactURL, type WorkerRunner } from 'ambi-web/worker';
import { asProblem, button } from './render.js';

/** What is kept of a server (localStorage): never its token. */
interface SavedServer {
  id: string;
  url: string;
  /** Its tools' names become `${prefix}_${name}`, so two servers (or a demo tool) never clash. */
  prefix: string;
  /** The person wants to approve every call of this server, whatever its annotations say. */
  ask?: boolean;
}

/** A tool as the settings show it: its name on the assistant's side, and its policy. */
export interface ToolPolicyView {
  name: string;
  readOnly: boolean;
  needsApproval: boolean;
}

const SERVERS_KEY = 'ambi-demo:mcp-servers';
const tokenKey = (id: string) => `ambi-demo:mcp-token:${id}`;

function savedServers(): SavedServer[] {
  try {
    const saved: unknown = JSON.parse(localStorage.getItem(SERVERS_KEY) ?? '[]');
    if (!Array.isArray(saved)) return [];
    return saved.filter(
      (s): s is SavedServer => typeof s?.id === 'string' && typeof s?.url === 'string' && typeof s?.prefix === 'string' && /^[a-z0-9]{1,12}$/.test(s.prefix),
    );
  } catch {
    return [];
  }
}

function saveServers(servers: SavedServer[]): void {
  localStorage.setItem(SERVERS_KEY, JSON.stringify(servers));
}

function configOf(server: SavedServer): McpServerConfig {
  const token = sessionStorage.getItem(tokenKey(server.id));
  return mcpServer({
    url: server.url,
    prefix: server.prefix,
    ...(token ? { headers: { Authorization: `Bearer ${token}` } } : {}),
    ...(server.ask ? { policy: { '*': { needsApproval: true } } } : {}),
  });
}

/** The configs of the servers the person listed, for the runner (a server saved wrong is skipped). */
export function mcpServerConfigs(): McpServerConfig[] {
  const configs: McpServerConfig[] = [];
  for (const server of savedServers()) {
    try {
      configs.push(configOf(server));
    } catch {
      // A hand-edited entry that is no config: the list in Settings still shows it, to remove.
    }
  }
  return configs;
}

/**
 * Connect `runner` to every listed server; one that cannot be reached is told through `problem`
 * and the others still serve. `signal` (Stop) ends the wait for a server that does not answer:
 * this then rejects with code `aborted`.
 */
export async function connectMcpServers(runner: WorkerRunner, signal: AbortSignal, problem: (text: string) => void): Promise<void> {
  for (const config of mcpServerConfigs()) {
    try {
      await untilAborted(runner.mcp(config), signal);
    } catch (error) {
      if (signal.aborted) throw error;
      const { code, message } = asProblem(error);
      problem(`The MCP server ${redactURL(config.url)} is not available (${code}): ${message}`);
    }
  }
}

function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  const stopped = () => Object.assign(new Error('Stopped while connecting to an MCP server'), { code: 'aborted' });
  if (signal.aborted) return Promise.reject(stopped());
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(stopped());
    signal.addEventListener('abort', abort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
  });
}

/**
 * The server's tools and their policies, as the SDK derives them from its annotations: an
 * in-page agent connects once and lists them (loaded on demand, so the page carries none of it
 * until the person adds a server).
 */
async function listServerTools(config: McpServerConfig): Promise<ToolPolicyView[]> {
  const { Agent, scriptedEngine } = await import('ambi-web');
  const agent = await Agent.make(scriptedEngine(['(unused)']), { validation: 'no-eval' });
  const connection = await agent.mcp(config);
  try {
    return connection.tools.map((name) => {
      const tool = agent.registry.get(name);
      return { name, readOnly: tool?.readOnly === true, needsApproval: tool?.needsApproval !== undefined && tool.needsApproval !== false };
    });
  } finally {
    await connection.close();
  }
}

/** Wire the MCP part of the settings dialog. */
export function mountMcpSettings(): void {
  const urlField = document.querySelector<HTMLInputElement>('#settings input[name="mcpURL"]')!;
  const tokenField = document.querySelector<HTMLInputElement>('#settings input[name="mcpToken"]')!;
  const askField = document.querySelector<HTMLInputElement>('#settings input[name="mcpAsk"]')!;
  const list = document.querySelector<HTMLUListElement>('#mcp-servers')!;
  // Tools seen per server id, this page's lifetime.
  const seen = new Map<string, ToolPolicyView[] | string>();

  const render = () => list.replaceChildren(...savedServers().map((server) => serverItem(server, seen.get(server.id), () => remove(server))));
  const remove = (server: SavedServer) => {
    saveServers(savedServers().filter((s) => s.id !== server.id));
    sessionStorage.removeItem(tokenKey(server.id));
    seen.delete(server.id);
    render();
  };
  const look = async (server: SavedServer) => {
    try {
      seen.set(server.id, await listServerTools(configOf(server)));
    } catch (error) {
      const { code, message } = asProblem(error);
      seen.set(server.id, `Not reachable (${code}): ${message}`);
    }
    render();
  };
  const add = async () => {
    const url = urlField.value.trim();
    const servers = savedServers();
    let server: SavedServer;
    try {
      const parsed = new URL(url);
      if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error('the URL must start with http:// or https://');
      if (parsed.username || parsed.password) throw new Error('put a token in the token field, not in the URL');
      server = { id: crypto.randomUUID(), url, prefix: nextPrefix(servers), ...(askField.checked ? { ask: true } : {}) };
      mcpServer({ url, prefix: server.prefix });
    } catch (error) {
      showAddProblem(`Not added: ${asProblem(error).message}`);
      return;
    }
    showAddProblem(undefined);
    const token = tokenField.value.trim();
    if (token) sessionStorage.setItem(tokenKey(server.id), token);
    saveServers([...servers, server]);
    urlField.value = tokenField.value = '';
    askField.checked = false;
    seen.set(server.id, 'Connecting…');
    render();
    await look(server);
  };

  document.querySelector('#mcp-add-button')!.addEventListener('click', () => void add());
  // Enter in these fields adds the server instead of saving (and closing) the dialog.
  for (const field of [urlField, tokenField])
    field.addEventListener('keydown', (event) => {
      if (event.key !== 'Enter') return;
      event.preventDefault();
      void add();
    });
  // Opening the settings lists each server's tools as they are now.
  document.querySelector('#open-settings')!.addEventListener('click', () => {
    render();
    for (const server of savedServers()) if (!seen.has(server.id)) void look(server);
  });
}

function showAddProblem(text: string | undefined): void {
  let note = document.querySelector<HTMLElement>('#mcp-add-problem');
  if (!note) {
    note = document.createElement('p');
    note.id = 'mcp-add-problem';
    note.className = 'hint error';
    document.querySelector('#mcp-add')!.append(note);
  }
  note.hidden = text === undefined;
  note.textContent = text ?? '';
}

/** `mcp`, then `mcp2`, `mcp3`…: the first prefix no listed server uses. */
function nextPrefix(servers: SavedServer[]): string {
  const taken = new Set(servers.map((s) => s.prefix));
  for (let n = 1; ; n++) {
    const prefix = n === 1 ? 'mcp' : `mcp${n}`;
    if (!taken.has(prefix)) return prefix;
  }
}

/** A listed server: its URL (secrets redacted), its tools with their policies (text only), and Remove. */
function serverItem(server: SavedServer, tools: ToolPolicyView[] | string | undefined, onRemove: () => void): HTMLLIElement {
  const item = document.createElement('li');
  item.dataset.serverId = server.id;
  const title = document.createElement('strong');
  title.textContent = redactURL(server.url);
  const token = sessionStorage.getItem(tokenKey(server.id)) ? ' (with a bearer token)' : '';
  const ask = server.ask ? ' (every call asks you first)' : '';
  item.append(title, token, ask, ' ', button('Remove', 'ghost remove', onRemove));
  if (typeof tools === 'string' || tools === undefined) {
    const note = document.createElement('p');
    note.className = 'hint';
    note.textContent = tools ?? 'Not connected yet.';
    item.append(note);
    item.dataset.state = tools === undefined || tools === 'Connecting…' ? 'pending' : 'error';
    return item;
  }
  item.dataset.state = 'ready';
  const names = document.createElement('ul');
  for (const tool of tools) {
    const row = document.createElement('li');
    row.dataset.tool = tool.name;
    row.dataset.readOnly = String(tool.readOnly);
    row.dataset.needsApproval = String(tool.needsApproval);
    const policy = [tool.readOnly ? 'read-only' : 'changes things', tool.needsApproval ? 'asks for approval' : 'runs without asking'];
    row.textContent = `${tool.name}: ${policy.join(', ')}`;
    names.append(row);
  }
  item.append(names);
  return item;
}
