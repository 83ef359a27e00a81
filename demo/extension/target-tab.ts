// Which tab the panel works on: the active tab of the window (a side panel sits beside it), or
// the tab named by `?tab=<id>` (the panel opened as a tab of its own, as the e2e tests do, or a tab
// the person picked). Opened with no page beside it, the panel has none, says so and offers the
// open tabs to pick from (tab-picker.ts).
export interface TabInfo {
  id?: number;
  title?: string;
  url?: string;
}

interface TabsApi {
  query(filter: { active?: boolean; lastFocusedWindow?: boolean }): Promise<TabInfo[]>;
  getCurrent(): Promise<TabInfo | undefined>;
}

const tabs = () => (globalThis as unknown as { chrome: { tabs: TabsApi } }).chrome.tabs;

/** The tab id to work on, or undefined when there is none (a window of extension pages only). */
export async function targetTab(): Promise<number | undefined> {
  const pinned = new URLSearchParams(location.search).get('tab');
  if (pinned !== null && /^\d+$/.test(pinned)) return Number(pinned);
  const [active] = await tabs().query({ active: true, lastFocusedWindow: true });
  const own = await tabs().getCurrent(); // undefined in the side panel
  return active?.id !== undefined && active.id !== own?.id ? active.id : undefined;
}

/** The tabs the panel could work on: every tab but its own and the extension's pages (title and URL where the browser tells them). */
export async function pickableTabs(): Promise<TabInfo[]> {
  const own = await tabs().getCurrent();
  return (await tabs().query({})).filter((tab) => tab.id !== undefined && tab.id !== own?.id && !tab.url?.startsWith('chrome-extension://'));
}
