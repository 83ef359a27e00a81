// Finds a Chromium for the browser tests before anything runs: CHROMIUM_PATH, Debian's
// /usr/bin/chromium, then Playwright's own download. Where there is none it tries
// `npx playwright install chromium` (machines with internet), and where that fails too it
// says, once, how to get one.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chromium } from 'playwright';

const DEBIAN_CHROMIUM = '/usr/bin/chromium';
const HOW_TO_GET_ONE = [
  'Get one of these, then run the tests again:',
  '  - Debian/Ubuntu: `sudo apt-get install chromium` (gives /usr/bin/chromium);',
  '  - any machine with internet: `npx playwright install chromium`;',
  '  - or point CHROMIUM_PATH at a Chromium or Chrome you have.',
].join('\n');

/** Playwright's own Chromium, if it has been downloaded. */
function playwrightChromium() {
  try {
    const path = chromium.executablePath();
    return path && existsSync(path) ? path : undefined;
  } catch {
    return undefined;
  }
}

/** The Chromium to use, as a path; `undefined` with `why` when there is none. */
export function findChromium({ install = true, log = console.log } = {}) {
  const given = process.env.CHROMIUM_PATH;
  if (given && given !== 'playwright') {
    if (existsSync(given)) return { path: given };
    return { why: `CHROMIUM_PATH is set to ${given}, which does not exist.\n${HOW_TO_GET_ONE}` };
  }
  if (given !== 'playwright' && existsSync(DEBIAN_CHROMIUM)) return { path: DEBIAN_CHROMIUM };
  const own = playwrightChromium();
  if (own) return { path: own };
  if (install) {
    log('== no Chromium found: trying `npx playwright install chromium`');
    const { status } = spawnSync('npx', ['playwright', 'install', 'chromium'], { stdio: 'inherit' });
    const installed = status === 0 ? playwrightChromium() : undefined;
    if (installed) return { path: installed };
  }
  return { why: `No Chromium for the browser tests.\n${HOW_TO_GET_ONE}` };
}
