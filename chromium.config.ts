/** Chromium launch settings shared by Vitest browser mode and Playwright (see TOOLCHAIN.md). */
export const chromiumExecutable: string | undefined =
  process.env.CHROMIUM_PATH === 'playwright' ? undefined : (process.env.CHROMIUM_PATH ?? '/usr/bin/chromium');

export const chromiumArgs = [
  '--no-sandbox',
  '--headless=new',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
  '--no-default-browser-check',
  // Exposes WebMCP (`document.modelContext`) in Chromium 156; without it there is none.
  '--enable-features=WebMCPTesting',
];
