// The packed package in a fresh Vite app: `npm pack` (which builds dist/lib and dist/types),
// install the tarball into a copy of e2e/consumer, `vite build` it and serve it on its own port.
import { expect, test, type Page } from '@playwright/test';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';

const root = fileURLToPath(new URL('..', import.meta.url));
const origin = 'http://127.0.0.1:4174';

// Markers that survive minification: ajv's compiler, the tag parser, the loop's events.
const loopMarkers = ['ajv/dist/runtime', 'strict mode', '[TOOL_CALL]', 'iteration_finished'];

// An outer `npm test` leaves npm's own variables behind; a nested npm must see the temp app as its project.
const env = Object.fromEntries(
  Object.entries(process.env).filter(([key]) => !/^(npm_(package_|lifecycle_|command$|config_local_prefix$|config_call$)|INIT_CWD$)/i.test(key)),
);

let workDir = '';
let app = '';
const servers: ChildProcess[] = [];

async function run(command: string, args: string[], cwd: string): Promise<void> {
  try {
    await promisify(execFile)(command, args, { cwd, env, maxBuffer: 32 * 1024 * 1024 });
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw new Error(`${command} ${args.join(' ')} failed in ${cwd}\n${stdout.slice(-4000)}\n${stderr.slice(-4000)}`);
  }
}

/** Start the consumer's own vite (`preview` or the dev server) on `port`; resolves once it answers. */
async function startVite(args: string[], port: number): Promise<ChildProcess> {
  const vite = join(app, 'node_modules', 'vite', 'bin', 'vite.js');
  const child = spawn(process.execPath, [vite, ...args, '--host', '127.0.0.1', '--port', String(port), '--strictPort'], { cwd: app, env, stdio: 'pipe' });
  servers.push(child);
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const exited = new Promise<never>((_, reject) => child.once('exit', (code) => reject(new Error(`vite ${args.join(' ')} exited (${code}):\n${output}`))));
  exited.catch(() => {});
  const url = `http://127.0.0.1:${port}/`;
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const up = await Promise.race([
      fetch(url).then(
        (r) => r.ok,
        () => false,
      ),
      exited,
    ]);
    if (up) return child;
    await Promise.race([new Promise((resolve) => setTimeout(resolve, 200)), exited]);
  }
  throw new Error(`vite ${args.join(' ')} did not answer on ${url} within 30 s:\n${output}`);
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill();
  await exited;
}

/** What the consumer page shows once its run settles: the result, or the error it caught. */
async function settledResult(page: Page): Promise<unknown> {
  const result = page.locator('#result');
  await expect(result).toHaveAttribute('data-state', /^(ok|error)$/);
  const text = (await result.textContent()) ?? '';
  expect(await result.getAttribute('data-state'), text).toBe('ok');
  return JSON.parse(text);
}

const expectedResult = {
  text: 'The sum is 5.',
  toolResults: [
    { name: 'add', ok: true, output: 5 },
    { name: 'realm', ok: true, output: { document: 'undefined', worker: true } },
  ],
};

test.beforeAll(async () => {
  test.setTimeout(240_000);
  workDir = mkdtempSync(join(tmpdir(), 'ambi-web-package-'));
  const packDir = join(workDir, 'pack');
  app = join(workDir, 'app');
  mkdirSync(packDir);

  // prepack builds and checks dist/lib and dist/types, so the tarball is always fresh.
  await run('npm', ['pack', '--pack-destination', packDir, '--ignore-scripts=false', '--loglevel=error'], root);
  const tarball = readdirSync(packDir).find((name) => name.endsWith('.tgz'));
  if (!tarball) throw new Error(`npm pack wrote no tarball in ${packDir}`);

  cpSync(join(root, 'e2e', 'consumer'), app, { recursive: true });
  const manifest = JSON.parse(readFileSync(join(app, 'package.json'), 'utf8'));
  const viteVersion: string = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).devDependencies.vite;
  manifest.dependencies = { 'ambi-web': `file:${join(packDir, tarball)}` };
  manifest.devDependencies = { vite: viteVersion };
  writeFileSync(join(app, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);

  // Everything comes from the npm cache that `npm ci` filled; the registry only if it lacks something.
  await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'], app);
  await run(process.execPath, [join(app, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'warn'], app);
  await startVite(['preview'], 4174);
});

test.afterAll(async () => {
  await Promise.all(servers.map(stop));
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

test('a packed ambi-web runs a page tool and a dedicated worker tool through its runner worker', async ({ page }) => {
  await page.goto(`${origin}/`);
  expect(await settledResult(page)).toEqual(expectedResult);
  await expect(page.locator('#sum')).toHaveText('5');
  const workerUrls = page.workers().map((worker) => new URL(worker.url()).pathname);
  expect(workerUrls).toEqual(expect.arrayContaining([expect.stringMatching(/runner\.worker[^/]*\.js$/), expect.stringMatching(/tools\.worker[^/]*\.js$/)]));
});

test('the page bundle of ambi-web/worker leaves the validator compiler, the parser and the loop to the runner worker', async ({ request }) => {
  const html = await (await request.get(`${origin}/`)).text();
  const entry = html.match(/<script type="module"[^>]*src="([^"]+)"/)?.[1];
  expect(entry, 'the page has a module script').toBeTruthy();
  const pageCode = await (await request.get(new URL(entry!, `${origin}/`).href)).text();
  for (const marker of loopMarkers) expect(pageCode, `page bundle contains ${marker}`).not.toContain(marker);

  const runnerWorker = pageCode.match(/[\w./-]*runner\.worker[\w.-]*\.js/)?.[0];
  expect(runnerWorker, 'the page bundle names the runner worker file').toBeTruthy();
  const workerResponse = await request.get(new URL(runnerWorker!, `${origin}/`).href);
  expect(workerResponse.ok()).toBe(true);
  const workerCode = await workerResponse.text();
  for (const marker of loopMarkers) expect(workerCode, `runner worker contains ${marker}`).toContain(marker);

  const gzipKb = (code: string) => (gzipSync(code).length / 1024).toFixed(2);
  test
    .info()
    .annotations.push(
      { type: 'page entry', description: `${(pageCode.length / 1024).toFixed(2)} kB, gzip ${gzipKb(pageCode)} kB` },
      { type: 'runner worker', description: `${(workerCode.length / 1024).toFixed(2)} kB, gzip ${gzipKb(workerCode)} kB` },
    );
});

test("the packed package also runs under the consumer's dev server, which pre-bundles it", async ({ page }) => {
  const dev = await startVite([], 4175);
  try {
    await page.goto('http://127.0.0.1:4175/');
    expect(await settledResult(page)).toEqual(expectedResult);
    expect(existsSync(join(app, 'node_modules', '.vite', 'deps', 'ambi-web_worker.js')), 'vite pre-bundled ambi-web/worker').toBe(true);
  } finally {
    await stop(dev);
  }
});
