// Which tab the panel works on: the active tab of the window (a side panel sits beside it), or
// the tab named by `?tab=<id>` (the panel opened as a tab of its own, as the e2e tests do).
interface TabsApi {
  query(filter: { active: boolean; lastFocusedWindow: boolean }): Promise<Array<{ id?: number }>>;
  getCurrent(): Promise<{ id?: number } | undefined>;
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
