// How `npm test` gets a Chromium (scripts/find-chromium.mjs): it looks, then installs one where it
// can (Playwright's download, then apt-get as root), and only then stops, naming what to run. The
// machine is played by a fake `system` that records the commands run; nothing is installed here.
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module script of the repo, without declarations
import { findChromium } from '../../scripts/find-chromium.mjs';

type Found = { path?: string; why?: string };

interface Machine {
  files?: string[];
  root?: boolean;
  apt?: boolean;
  /** Whether Playwright's download works (the network reaches it). */
  network?: boolean;
  /** Whether apt-get's install works. */
  aptWorks?: boolean;
}

const PLAYWRIGHT_BUILD = '/root/.cache/ms-playwright/chromium-1234/chrome-linux/chrome';

/** A machine as find-chromium sees it; `commands` lists what it ran. */
function machine({ files = [], root = false, apt = true, network = false, aptWorks = true }: Machine) {
  const present = new Set(files);
  const commands: string[] = [];
  const system = {
    exists: (path: string) => present.has(path),
    playwrightChromium: async () => (present.has(PLAYWRIGHT_BUILD) ? PLAYWRIGHT_BUILD : undefined),
    run: (command: string, args: string[]) => {
      commands.push([command, ...args].join(' '));
      if (command === 'npx' && network) present.add(PLAYWRIGHT_BUILD);
      if (command === 'apt-get' && args[0] === 'install' && aptWorks) present.add('/usr/bin/chromium');
      return command === 'npx' ? network : aptWorks;
    },
    isRoot: () => root,
    hasCommand: (name: string) => name === 'apt-get' && apt,
  };
  return { system, commands };
}

const find = (m: ReturnType<typeof machine>, env: Record<string, string> = {}, install = true): Promise<Found> =>
  findChromium({ install, env, system: m.system, log: () => {} });

describe('npm test finds a Chromium, or installs one where it can, before anything runs', () => {
  it('uses CHROMIUM_PATH when it names a file that exists, and installs nothing', async () => {
    const m = machine({ files: ['/opt/chrome/chrome'] });
    expect(await find(m, { CHROMIUM_PATH: '/opt/chrome/chrome' })).toEqual({ path: '/opt/chrome/chrome' });
    expect(m.commands).toEqual([]);
  });

  it('stops when CHROMIUM_PATH names nothing, naming the path and the ways to get a browser', async () => {
    const m = machine({ files: ['/usr/bin/chromium'] });
    const found = await find(m, { CHROMIUM_PATH: '/nonexistent/chromium' });
    expect(found.path).toBeUndefined();
    expect(found.why).toContain('/nonexistent/chromium');
    expect(found.why).toContain('sudo apt-get install chromium');
    expect(found.why).toContain('npx playwright install chromium');
    expect(m.commands).toEqual([]);
  });

  it("prefers Debian's /usr/bin/chromium, then a Playwright build downloaded before", async () => {
    expect(await find(machine({ files: ['/usr/bin/chromium', PLAYWRIGHT_BUILD] }))).toEqual({ path: '/usr/bin/chromium' });
    const m = machine({ files: [PLAYWRIGHT_BUILD] });
    expect(await find(m)).toEqual({ path: PLAYWRIGHT_BUILD });
    expect(m.commands).toEqual([]);
  });

  it("downloads Playwright's Chromium where the network allows, and tries nothing else", async () => {
    const m = machine({ network: true, root: true });
    expect(await find(m)).toEqual({ path: PLAYWRIGHT_BUILD });
    expect(m.commands).toEqual(['npx playwright install chromium']);
  });

  it("as root with no network, installs Debian's chromium with apt-get, as .ci/run does", async () => {
    const m = machine({ root: true });
    expect(await find(m)).toEqual({ path: '/usr/bin/chromium' });
    expect(m.commands).toEqual(['npx playwright install chromium', 'apt-get update -qq', 'apt-get install -y -qq chromium']);
  });

  it('not root and no network: stops after the download, naming sudo apt-get and the download to run', async () => {
    const m = machine({ root: false });
    const found = await find(m);
    expect(found.path).toBeUndefined();
    expect(m.commands).toEqual(['npx playwright install chromium']);
    expect(found.why).toContain('tried: `npx playwright install chromium`');
    expect(found.why).toContain('`sudo apt-get install chromium`');
    expect(found.why).toContain('CHROMIUM_PATH');
  });

  it('as root when apt-get fails too: stops, saying both were tried', async () => {
    const m = machine({ root: true, aptWorks: false });
    const found = await find(m);
    expect(found.path).toBeUndefined();
    expect(found.why).toContain('tried: `npx playwright install chromium`, `apt-get install chromium`');
    expect(found.why).toContain('`apt-get install chromium`');
    expect(found.why).not.toContain('sudo');
  });

  it('without apt-get (another system), says only the download and CHROMIUM_PATH', async () => {
    const m = machine({ root: true, apt: false });
    const found = await find(m);
    expect(m.commands).toEqual(['npx playwright install chromium']);
    expect(found.why).not.toContain('apt-get');
    expect(found.why).toContain('npx playwright install chromium');
  });

  it("CHROMIUM_PATH=playwright wants only Playwright's build: Debian's is not used nor installed", async () => {
    const m = machine({ files: ['/usr/bin/chromium'], root: true });
    const found = await find(m, { CHROMIUM_PATH: 'playwright' });
    expect(found.path).toBeUndefined();
    expect(m.commands).toEqual(['npx playwright install chromium']);
  });

  it('install: false only looks', async () => {
    const m = machine({ root: true, network: true });
    const found = await find(m, {}, false);
    expect(found.path).toBeUndefined();
    expect(m.commands).toEqual([]);
  });
});
