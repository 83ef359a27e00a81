// Settings → MCP servers: the person adds a Streamable HTTP server (a bearer token and the URL's
// query kept in sessionStorage like the API key: see mcp-storage.ts), sees its tools with their
// policies, and removes it. The
// assistant's runner connects to every listed server (the connection lives in the runner worker).
import type { McpServerConfig, WorkerRunner } from 'ambi-web/worker';
import { mcpServer, redactURL } from 'ambi-web/worker';
import { addServer, configOf, fullUrl, hasToken, removeServer, type SavedServer, savedServers } from './mcp-storage.js';
import { asProblem, button } from './render.js';

/** A tool as the settings show it: its name on the assistant's side, and its policy. */
export interface ToolPolicyView {
  name: string;
  readOnly: boolean;
  needsApproval: boolean;
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
  for (const server of savedServers()) {
    let config: McpServerConfig;
    try {
      config = configOf(server);
    } catch (error) {
      problem(`The MCP server ${redactURL(server.url)} is not available: ${asProblem(error).message}`);
      continue;
    }
    try {
      await runner.mcp(config, { signal });
    } catch (error) {
      if (signal.aborted) throw error;
      const { code, message } = asProblem(error);
      problem(`The MCP server ${redactURL(config.url)} is not available (${code}): ${message}`);
    }
  }
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
    removeServer(server.id);
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
    let server: SavedServer;
    try {
      const parsed = new URL(url);
      if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error('the URL must start with http:// or https://');
      if (parsed.username || parsed.password) throw new Error('put a token in the token field, not in the URL');
      mcpServer({ url });
      server = addServer(url, tokenField.value.trim(), askField.checked);
    } catch (error) {
      showAddProblem(`Not added: ${asProblem(error).message}`);
      return;
    }
    showAddProblem(undefined);
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

/** A listed server: its URL (secrets redacted), its tools with their policies (text only), and Remove. */
function serverItem(server: SavedServer, tools: ToolPolicyView[] | string | undefined, onRemove: () => void): HTMLLIElement {
  const item = document.createElement('li');
  item.dataset.serverId = server.id;
  const title = document.createElement('strong');
  const url = fullUrl(server);
  title.textContent = redactURL(url ?? `${server.url}?…`);
  const token = hasToken(server) ? ' (with a bearer token)' : '';
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
