/**
 * Chromium launch settings shared by Vitest browser mode, Playwright and the benchmarks. Run as
 * root, Chromium needs `--no-sandbox`; without the background-networking flags it keeps trying
 * to reach a network a CI machine may not have. `CHROMIUM_PATH=playwright` uses Playwright's own build.
 */
export const chromiumExecutable: string | undefined =
  process.env.CHROMIUM_PATH === 'playwright' ? undefined : (process.env.CHROMIUM_PATH ?? '/usr/bin/chromium');

/** Chromium's flag for WebMCP (`document.modelContext`); Debian's Chromium 156 exposes none without it. */
export const webMcpFlag = '--enable-features=WebMCPTesting';

/** The shared arguments without WebMCP: what a browser that does not have it looks like. */
export const chromiumArgsWithoutWebMcp = [
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
];

export const chromiumArgs = [...chromiumArgsWithoutWebMcp, webMcpFlag];
