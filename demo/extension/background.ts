// The service worker: it only opens the side panel when the toolbar button is clicked. Nothing of a
// run lives here (the browser stops a service worker when idle): the runner lives in the panel.
interface SidePanelApi {
  setPanelBehavior(behavior: { openPanelOnActionClick: boolean }): Promise<void>;
}

const { sidePanel } = (globalThis as unknown as { chrome: { sidePanel: SidePanelApi } }).chrome;
void sidePanel.setPanelBehavior({ openPanelOnActionClick: true });
