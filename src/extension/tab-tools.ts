// The extension page's side of tab tools: the tools a tab's content script exposes, registered
// with a WorkerRunner as page tools whose calls cross to the tab (see tab-exchange.ts).
import { AmbiError, isAmbiError } from '../errors/ambi-error.js';
import { InvalidOptionError } from '../errors/invalid-option-error.js';
import { TOOL_NAME_PATTERN } from '../tools/policy.js';
import type { Tool } from '../tools/types.js';
import type { CallTarget, JsonValue } from '../core/types.js';
import { CheckedJson } from '../call/checked-json.js';
import { chromeRuntime, chromeTabs } from './chrome-api.js';
import { exchange, type TabTarget } from './tab-exchange.js';
import type { TabDocument, TabToolDescriptor } from './protocol.js';
import { answerWhichDocument } from './this-document.js';
import { withParts } from '../parts/with-parts.js';

/** How `runner.tabTools(tabId, options)` registers a tab's tools. */
export interface TabToolsOptions {
  /** Register each tool as `${prefix}_${name}` (two tabs' tools side by side, say). */
  prefix?: string;
  /** The frame whose content script serves the tools (default 0, the tab's top frame). */
  frameId?: number;
  /** How long the tab may take to list its tools (default 5 000 ms); then `tab_unavailable`. */
  listTimeoutMs?: number;
  /**
   * The tools' definitions (names, descriptions, schemas) are accepted as the app's own: a tab's
   * content script that is your extension's code, with definitions it does not build from the
   * page. Then a request that offers them exposes nothing (their results stay untrusted);
   * `refresh()` accepts the list as it is then. Default false: such a request is exposed, naming
   * the tab (`tab:<id>`), as the listing comes from the tab's renderer.
   */
  acceptDefinitions?: boolean;
}

/** The tools of one tab, registered with a runner. */
export interface TabTools {
  readonly tabId: number;
  /** The names registered, prefix included. */
  readonly tools: string[];
  /** List the tab's tools again (its page changed, say) and register that list instead; resolves with the new names. */
  refresh(): Promise<string[]>;
  /** Remove these tools from the runner; their calls still running end with `closed`. */
  close(): Promise<void>;
}

/** What a WorkerRunner lends tab tools: add page tools (all or none, once the runner worker took them), and remove them. */
export interface PageToolHost {
  add(tools: readonly Tool[]): Promise<void>;
  remove(names: readonly string[]): Promise<void>;
}

const DEFAULT_LIST_TIMEOUT_MS = 5_000;

/**
 * `runner.tabTools(tabId, options)`: list the tab's tools and register them with the runner. Tab
 * tools are untrusted, and each call is bound to the document the tab showed when it was proposed.
 */
export async function tabTools(host: PageToolHost, tabId: number, options: TabToolsOptions = {}): Promise<TabTools> {
  const target = checkTarget(tabId, options);
  chromeTabs(); // extension_unavailable on a web page, before anything is tried
  // The tab's content script asks this page which document it runs in (see this-document.ts).
  answerWhichDocument(chromeRuntime());
  const listTimeoutMs = options.listTimeoutMs ?? DEFAULT_LIST_TIMEOUT_MS;
  if (!(Number.isFinite(listTimeoutMs) && listTimeoutMs > 0)) throw new InvalidOptionError('listTimeoutMs', 'must be a positive number of milliseconds');
  const prefix = options.prefix === undefined ? '' : `${options.prefix}_`;
  const accepted = options.acceptDefinitions === true;
  // Calls of these tools still running: `close()` ends them.
  const running = new Set<AbortController>();
  let closed = false;
  let names: string[] = [];

  const add = async (listed: TabToolDescriptor[]) => {
    const tools = listed.map((descriptor) => tabTool(target, descriptor, { prefix, accepted }, running, () => closed));
    await host.add(tools);
    names = tools.map((tool) => tool.name);
    return [...names];
  };
  await add(await listTools(target, listTimeoutMs));
  return {
    tabId,
    get tools() {
      return [...names];
    },
    refresh: async () => {
      if (closed) throw new AmbiError('closed', `The tools of tab ${tabId} were closed`);
      const listed = await listTools(target, listTimeoutMs); // the old ones stay if the tab cannot list
      await host.remove(names);
      names = [];
      return add(listed);
    },
    close: async () => {
      if (closed) return;
      closed = true;
      for (const controller of running) controller.abort(new AmbiError('closed', `The tools of tab ${tabId} were closed`));
      await host.remove(names);
      names = [];
    },
  };
}

function checkTarget(tabId: number, options: TabToolsOptions): TabTarget {
  if (!(Number.isInteger(tabId) && tabId >= 0)) throw new InvalidOptionError('tabId', `must be a tab id, an integer >= 0 (got ${String(tabId)})`);
  const frameId = options.frameId ?? 0;
  if (!(Number.isInteger(frameId) && frameId >= 0)) throw new InvalidOptionError('frameId', `must be a frame id, an integer >= 0 (got ${String(frameId)})`);
  if (options.prefix !== undefined && !(typeof options.prefix === 'string' && TOOL_NAME_PATTERN.test(options.prefix)))
    throw new InvalidOptionError('prefix', 'must be letters, digits, "_" or "-"');
  if (options.acceptDefinitions !== undefined && typeof options.acceptDefinitions !== 'boolean')
    throw new InvalidOptionError('acceptDefinitions', 'must be true or false');
  return { tabId, frameId };
}

/**
 * The tab's tools as its content script lists them. `tab_gone` if the tab does not exist;
 * `tab_unavailable` if it does but no content script of this extension answers (a browser page,
 * a page loaded before the extension was installed, or one whose script is stuck) within `timeoutMs`.
 */
async function listTools(target: TabTarget, timeoutMs: number): Promise<TabToolDescriptor[]> {
  const reply = await exchange(target, { t: 'list' }, AbortSignal.timeout(timeoutMs)).catch(async (error: unknown) => {
    if ((error as { name?: unknown } | null)?.name === 'TimeoutError') {
      throw unavailable(target, `its content script did not list its tools within ${timeoutMs} ms`);
    }
    if (isAmbiError(error, 'tab_gone') && (await tabExists(target.tabId))) throw unavailable(target, 'no content script of this extension listens there');
    throw error;
  });
  const tools = reply.t === 'tools' ? reply.tools : undefined;
  if (!Array.isArray(tools) || !tools.every((tool) => typeof tool === 'object' && tool !== null))
    throw unavailable(target, 'it answered with no list of tools');
  return tools;
}

function unavailable(target: TabTarget, why: string): AmbiError {
  return new AmbiError(
    'tab_unavailable',
    `Tab ${target.tabId} offers no tools: ${why}. A browser page never does; a page opened before the extension was installed or reloaded needs a reload.`,
  );
}

async function tabExists(tabId: number): Promise<boolean> {
  try {
    await chromeTabs().get(tabId);
    return true;
  } catch {
    return false;
  }
}

/**
 * One tab tool as a page tool: its definition and policy as the tab gave them (checked when it
 * is registered), `untrusted` (what it returns is a web page's words), its definition named as the
 * tab's words unless the app `accepted` it, a `target` (the document
 * the tab shows when a call is proposed) and a `call` that crosses to that document only, with the
 * arguments and the attempt's abort: a navigation between proposal and start ends it `tab_gone`.
 */
function tabTool(
  target: TabTarget,
  descriptor: TabToolDescriptor,
  { prefix, accepted }: { prefix: string; accepted: boolean },
  running: Set<AbortController>,
  closed: () => boolean,
): Tool {
  const { name, description, parameters, timeoutMs, maxRetries, retryDelayMs, idempotent, readOnly, approval } = descriptor;
  const inTab = String(name);
  const request = async <T>(body: (signal: AbortSignal) => Promise<T>, outer: AbortSignal): Promise<T> => {
    if (closed()) throw new AmbiError('closed', `The tools of tab ${target.tabId} were closed`);
    const controller = new AbortController();
    running.add(controller);
    try {
      return await body(AbortSignal.any([outer, controller.signal]));
    } finally {
      running.delete(controller);
    }
  };
  return {
    name: `${prefix}${inTab}`,
    description,
    parameters,
    timeoutMs,
    maxRetries,
    retryDelayMs,
    idempotent,
    ...(readOnly !== undefined ? { readOnly } : {}),
    untrusted: true,
    // The tab sent this definition: unless the app accepted it, a request that offers it is exposed.
    ...(accepted ? {} : { untrustedDefinition: `tab:${target.tabId}` }),
    // The tab's rule decides, within the tool's timeout: a tab that never answers does not hold the run.
    needsApproval:
      approval === 'ask' ? (args: unknown) => request((signal) => askTab(target, inTab, args, signal), AbortSignal.timeout(timeoutMs)) : approval === 'always',
    // Within the tool's timeout too: a tab that cannot say which page it shows does not hold the run.
    target: (_args: unknown, { signal }) => request((inner) => where(target, inner, timeoutMs), AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)])),
    call: (args: unknown, ctx) =>
      request(async (signal) => {
        const reply = await exchange(
          target,
          { t: 'call', name: inTab, args, callId: ctx.callId, attempt: ctx.attempt, idempotencyKey: ctx.idempotencyKey },
          signal,
          boundDocument(target, ctx.target),
        );
        // JSON already (the content script made it so; Chrome's messaging carries only JSON): not walked again.
        if (reply.t !== 'done') return new CheckedJson(null);
        const value = new CheckedJson(reply.value as JsonValue);
        // A tab tool's images and files (data: URLs over Chrome's messages) are parts again, checked by the run.
        return 'parts' in reply && Array.isArray(reply.parts) ? withParts(value, reply.parts) : value;
      }, ctx.signal),
  };
}

/** The document the tab's frame shows now, as its content script and Chrome tell it; `timeout` if it does not say within `timeoutMs`. */
async function where(target: TabTarget, signal: AbortSignal, timeoutMs: number): Promise<TabDocument> {
  const reply = await exchange(target, { t: 'where' }, signal).catch((error: unknown) => {
    if ((error as { name?: unknown } | null)?.name === 'TimeoutError')
      throw new AmbiError('timeout', `Tab ${target.tabId} did not say which page it shows within ${timeoutMs} ms`);
    throw error;
  });
  const found = reply.t === 'done' ? (reply.value as Partial<TabDocument> | null) : null;
  const { tabId, frameId, documentId, origin, url, title } = found ?? {};
  if (tabId !== target.tabId || frameId !== target.frameId || typeof documentId !== 'string' || typeof origin !== 'string')
    throw new AmbiError('tab_unavailable', `Tab ${target.tabId} answered with no page of its own: its content script is not this version's`);
  // Cut here too: a content script of another version may not.
  return { tabId, frameId, documentId, origin, url: String(url).slice(0, 2_000), title: String(title).slice(0, 200) };
}

/** The document a call is bound to: the one its target names, if it is this tab's frame (a call made outside a run has none). */
function boundDocument(target: TabTarget, named: CallTarget | undefined): Pick<TabDocument, 'documentId' | 'url'> | undefined {
  if (named === undefined) return undefined;
  const { tabId, frameId, documentId, url } = named;
  if (tabId !== target.tabId || frameId !== target.frameId || typeof documentId !== 'string')
    throw new AmbiError('tab_gone', `This call was proposed for another tab or frame than tab ${target.tabId}: it does not run here`);
  return { documentId, url: String(url) };
}

/** The tab's approval rule for these arguments. */
async function askTab(target: TabTarget, name: string, args: unknown, signal: AbortSignal): Promise<boolean> {
  const reply = await exchange(target, { t: 'ask', name, args }, signal);
  return reply.t === 'done' && reply.value === true;
}
