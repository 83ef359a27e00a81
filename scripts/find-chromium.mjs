// Finds a Chromium for the browser tests before anything runs, and gets one where it can:
//   1. CHROMIUM_PATH, when set (`playwright` means Playwright's own build);
//   2. Debian's /usr/bin/chromium;
//   3. Playwright's own build, if it was downloaded before;
//   4. `npx playwright install chromium` (works where the network reaches Playwright's downloads);
//   5. as root, with apt-get: `apt-get install chromium` (what .ci/run does);
//   6. otherwise it stops, saying which of these to run.
// The machine is reached through `system` (files, commands, the user), so tests/node/find-chromium.test.ts
// can play every case: no network, not root, an install that fails.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const DEBIAN_CHROMIUM = '/usr/bin/chromium';

/** The machine as the search sees it. */
export const realSystem = {
  exists: (path) => existsSync(path),
  /** Playwright's own Chromium, if it has been downloaded. */
  playwrightChromium: async () => {
    try {
      const { chromium } = await import('playwright');
      const path = chromium.executablePath();
      return path && existsSync(path) ? path : undefined;
    } catch {
      return undefined;
    }
  },
  /** Runs a command with its output shown; true if it exited 0. */
  run: (command, args, env = {}) => spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env } }).status === 0,
  isRoot: () => process.getuid?.() === 0,
  hasCommand: (name) => spawnSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' }).status === 0,
};

/** What to run by hand, the fitting lines first. */
function howToGetOne({ root, apt }) {
  const lines = ['Get one of these, then run the tests again:'];
  if (apt) lines.push(`  - Debian/Ubuntu: \`${root ? '' : 'sudo '}apt-get install chromium\` (gives ${DEBIAN_CHROMIUM});`);
  lines.push("  - with access to Playwright's downloads: `npx playwright install chromium` (`--with-deps` as root adds the libraries it needs);");
  lines.push('  - or point CHROMIUM_PATH at a Chromium or Chrome you have.');
  return lines.join('\n');
}

/**
 * The Chromium to use: `{ path }`, or `{ why }` saying what to run when there is none and none
 * could be installed. `install: false` only looks.
 */
export async function findChromium({ install = true, log = console.log, env = process.env, system = realSystem } = {}) {
  const root = system.isRoot();
  const apt = system.hasCommand('apt-get');
  const given = env.CHROMIUM_PATH;
  if (given && given !== 'playwright') {
    if (system.exists(given)) return { path: given };
    return { why: `CHROMIUM_PATH is set to ${given}, which does not exist.\n${howToGetOne({ root, apt })}` };
  }
  if (given !== 'playwright' && system.exists(DEBIAN_CHROMIUM)) return { path: DEBIAN_CHROMIUM };
  const own = await system.playwrightChromium();
  if (own) return { path: own };
  if (install) {
    log('== no Chromium found: trying `npx playwright install chromium`');
    if (system.run('npx', ['playwright', 'install', 'chromium'])) {
      const installed = await system.playwrightChromium();
      if (installed) return { path: installed };
    }
    if (given !== 'playwright' && root && apt) {
      log("== Playwright could not download one: installing Debian's chromium with apt-get (running as root)");
      const aptEnv = { DEBIAN_FRONTEND: 'noninteractive' };
      if (
        system.run('apt-get', ['update', '-qq'], aptEnv) &&
        system.run('apt-get', ['install', '-y', '-qq', 'chromium'], aptEnv) &&
        system.exists(DEBIAN_CHROMIUM)
      )
        return { path: DEBIAN_CHROMIUM };
    }
  }
  const triedApt = root && apt && given !== 'playwright' ? ', `apt-get install chromium`' : '';
  const tried = install ? ` (tried: \`npx playwright install chromium\`${triedApt})` : '';
  return { why: `No Chromium for the browser tests${tried}.\n${howToGetOne({ root, apt })}` };
}
