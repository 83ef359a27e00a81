// The few Chrome extension APIs tab tools use, typed here rather than through @types/chrome, so
// the package's declarations reference no ambient `chrome` a consumer may not have installed.
import { AmbiError } from '../errors/ambi-error.js';

/** One end of a `runtime.Port` (connection-based messaging). */
export interface ChromePort {
  readonly name: string;
  postMessage(message: unknown): void;
  disconnect(): void;
  readonly onMessage: ChromeEvent<(message: unknown, port: ChromePort) => void>;
  readonly onDisconnect: ChromeEvent<(port: ChromePort) => void>;
}

export interface ChromeEvent<L> {
  addListener(listener: L): void;
  removeListener(listener: L): void;
}

/**
 * What an extension page uses: connect to a tab's content script (to one document of it, with
 * `documentId`: Chrome refuses the port when that document is no longer there), and ask whether
 * the tab still exists.
 */
export interface ChromeTabsApi {
  connect(tabId: number, info: { name: string; frameId?: number; documentId?: string }): ChromePort;
  get(tabId: number): Promise<unknown>;
}

/** Who sent a runtime message, as Chrome says it (for a content script: its tab, frame and document). */
export interface ChromeMessageSender {
  readonly id?: string;
  readonly tab?: { id?: number };
  readonly frameId?: number;
  readonly documentId?: string;
  readonly origin?: string;
}

/** What a content script uses: be connected to, and ask the extension's pages (which document it runs in). What a page uses: answer that. */
export interface ChromeRuntimeApi {
  readonly id?: string;
  readonly lastError?: { message?: string };
  readonly onConnect: ChromeEvent<(port: ChromePort) => void>;
  sendMessage?(message: unknown): Promise<unknown>;
  readonly onMessage?: ChromeEvent<(message: unknown, sender: ChromeMessageSender, sendResponse: (response: unknown) => void) => void>;
}

interface ChromeGlobal {
  tabs?: ChromeTabsApi;
  runtime?: ChromeRuntimeApi;
}

function chromeGlobal(): ChromeGlobal | undefined {
  return (globalThis as { chrome?: ChromeGlobal }).chrome;
}

/** `chrome.tabs`, in an extension page; `extension_unavailable` elsewhere (a web page, a content script). */
export function chromeTabs(): ChromeTabsApi {
  const tabs = chromeGlobal()?.tabs;
  if (typeof tabs?.connect !== 'function') {
    throw new AmbiError(
      'extension_unavailable',
      'chrome.tabs is not available here: tab tools are used from an extension page (side panel, popup, offscreen document)',
    );
  }
  return tabs;
}

/** `chrome.runtime`, in a content script or an extension page; `extension_unavailable` on a web page. */
export function chromeRuntime(): ChromeRuntimeApi {
  const runtime = chromeGlobal()?.runtime;
  if (typeof runtime?.id !== 'string' || typeof runtime.onConnect?.addListener !== 'function') {
    throw new AmbiError('extension_unavailable', 'chrome.runtime is not available here: exposeTabTools runs in an extension content script');
  }
  return runtime;
}

/** The message of `chrome.runtime.lastError`, read (which also keeps Chrome from logging it as unchecked). */
export function lastErrorMessage(): string | undefined {
  return chromeGlobal()?.runtime?.lastError?.message;
}
