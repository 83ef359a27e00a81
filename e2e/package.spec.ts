// The packed package in a fresh Vite app: `npm pack` (which builds dist/lib and dist/types),
// install the tarball into a copy of e2e/consumer, `vite build` it and serve it on its own port.
// Also its dev server, and a tool's own bug said once in the console there (development), not in the build.
import { expect, test, type Page } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { tinyGguf } from '../tests/support/tiny-gguf.js';
import { env, packedTarball, root, run } from './packed-tarball.js';
import { e2ePort } from './ports.js';

const packagePort = e2ePort('PACKAGE');
const origin = `http://127.0.0.1:${packagePort}`;

// Markers that survive minification: ajv's compiler, the tag parser, the loop's events.
const loopMarkers = ['ajv/dist/runtime', 'strict mode', '[TOOL_CALL]', 'iteration_finished'];

let workDir = '';
let app = '';
const servers: ChildProcess[] = [];

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
  app = join(workDir, 'app');
  const tarball = await packedTarball();

  cpSync(join(root, 'e2e', 'consumer'), app, { recursive: true });
  const manifest = JSON.parse(readFileSync(join(app, 'package.json'), 'utf8'));
  const { devDependencies } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  manifest.dependencies = { 'ambi-web': `file:${tarball}`, zod: devDependencies.zod };
  manifest.devDependencies = { vite: devDependencies.vite };
  // The local model the `local` case runs: tiny, random weights, made on the spot.
  mkdirSync(join(app, 'public'));
  writeFileSync(join(app, 'public', 'tiny.gguf'), tinyGguf({ seed: 7 }));
  writeFileSync(join(app, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);

  // Everything comes from the npm cache that `npm ci` filled; the registry only if it lacks something.
  await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'], app);
  await run(process.execPath, [join(app, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'warn'], app);
  await startVite(['preview'], packagePort);
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
  // The entry and the chunks it imports statically: what the page loads before any run.
  const entryUrl = new URL(entry!, `${origin}/`).href;
  const entryCode = await (await request.get(entryUrl)).text();
  const imported = [...entryCode.matchAll(/\bfrom\s*["'`](\.\/[^"'`]+\.js)["'`]/g)].map((m) => new URL(m[1]!, entryUrl).href);
  const pageCode = [entryCode, ...(await Promise.all(imported.map(async (url) => (await request.get(url)).text())))].join('\n');
  for (const marker of loopMarkers) expect(pageCode, `page bundle contains ${marker}`).not.toContain(marker);
  expect(pageCode, 'the page bundle names the runner worker file').toMatch(/[\w./-]*runner\.worker[\w.-]*\.js/);
});

test('the runner worker is an ES module that loads what a run needs on demand, as sibling chunks with source maps', async ({ page, request }) => {
  const loaded: string[] = [];
  page.on('response', (response) => {
    if (response.url().endsWith('.js')) loaded.push(new URL(response.url()).pathname);
  });
  await page.goto(`${origin}/`);
  expect(await settledResult(page)).toEqual(expectedResult);

  const workerPath = loaded.find((path) => /runner\.worker[^/]*\.js$/.test(path));
  expect(workerPath, 'the runner worker was loaded').toBeTruthy();
  const workerCode = await (await request.get(`${origin}${workerPath}`)).text();
  // Split: the worker file imports sibling chunks, relative to itself.
  expect(workerCode).toMatch(/\bimport\s*(?:\{[^}]*\}\s*from\s*)?["'`]\.\/[^"'`]+\.js["'`]|\bimport\(\s*["'`]\.\/[^"'`]+\.js["'`]\s*\)/);
  // What this run did not need never loaded: the local model runtime (wllama), the MCP client, the
  // typed-answer, context-budget and resume extensions (the tag parser is the loop's own: every reply's text goes through it).
  const firstRun = await Promise.all(loaded.map(async (path) => ({ path, code: await (await request.get(`${origin}${path}`)).text() })));
  for (const { path, code } of firstRun) {
    expect(code, `${path} carries wllama`).not.toContain('LLAMA_CPP_WORKER_CODE');
    expect(code, `${path} carries the MCP client`).not.toContain('notifications/cancelled');
    expect(code, `${path} carries the typed-answer extension`).not.toContain('Your answer does not match the output schema');
    expect(code, `${path} carries the resume extension`).not.toContain('leaves are not resumed');
  }
  const map = await request.get(`${origin}${workerPath}.map`);
  expect(map.ok(), 'the app built a source map of the runner worker').toBe(true);

  const gzipKb = (codes: string[]) => (codes.reduce((sum, code) => sum + gzipSync(code).length, 0) / 1024).toFixed(2);
  const pageJs = firstRun.filter(({ path }) => !/worker/.test(path) && !firstRun.some((w) => /worker/.test(w.path) && w.code.includes(path.split('/').pop()!)));
  test
    .info()
    .annotations.push(
      { type: 'first run, all JS', description: `${firstRun.length} files, gzip ${gzipKb(firstRun.map((f) => f.code))} kB` },
      { type: 'page JS', description: `gzip ${gzipKb(pageJs.map((f) => f.code))} kB` },
    );
});

test('the installed package ships source maps and no declarations beyond the public surface', () => {
  const dist = join(app, 'node_modules', 'ambi-web', 'dist');
  // ambi-web's own maps, with the TypeScript sources inside, for a debugger or a bundler that chains them.
  const map = JSON.parse(readFileSync(join(dist, 'lib', 'runner.worker.js.map'), 'utf8'));
  expect(map.sources.some((source: string) => source.includes('workers/runner.worker.ts'))).toBe(true);
  expect(map.sourcesContent?.length).toBe(map.sources.length);
  // Every module is a file of its own (so an app splits ambi-web as finely as from its sources), its map beside it with its source.
  const host = JSON.parse(readFileSync(join(dist, 'lib', 'src', 'worker', 'runner', 'runner-host.js.map'), 'utf8')) as {
    sources: string[];
    sourcesContent?: string[];
  };
  expect(host.sources.some((source) => source.includes('src/worker/runner/runner-host.ts'))).toBe(true);
  expect(host.sourcesContent?.length).toBe(host.sources.length);
  // `ambi-web`'s entry only re-exports (nothing of its own to map); the modules it names ship theirs.
  expect(existsSync(join(dist, 'lib', 'src', 'agent', 'agent.js.map'))).toBe(true);
  const declarations = readdirSync(join(dist, 'types'), { recursive: true }).map(String);
  expect(declarations).toContain('index.d.ts');
  expect(declarations.some((file) => file.includes('draft-07-meta-schema'))).toBe(false);
  for (const file of ['LICENSE', 'README.md', 'package.json']) expect(existsSync(join(app, 'node_modules', 'ambi-web', file)), file).toBe(true);
});

test('a zod tool: its refinement refuses a bad call and its default fills a good one', async ({ page }) => {
  await page.goto(`${origin}/?case=zod`);
  expect(await settledResult(page)).toEqual({
    text: 'Done.',
    toolResults: [
      { name: 'search', ok: false, error: { code: 'invalid_arguments', message: expect.stringContaining('query') } },
      { name: 'search', ok: true, output: '10 notes about cats' },
    ],
  });
});

test("validation 'no-eval' under a CSP without 'unsafe-eval': calls are checked, none refused by the CSP", async ({ page }) => {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|unsafe-eval/i.test(message.text())) violations.push(message.text());
  });
  await page.goto(`${origin}/?case=no-eval`);
  expect(await settledResult(page)).toEqual({
    text: 'The sum is 5.',
    toolResults: [
      { name: 'add', ok: false, error: { code: 'invalid_arguments', message: expect.stringContaining('/a') } },
      { name: 'add', ok: true, output: 5 },
    ],
  });
  expect(violations).toEqual([]);
});

/** The console lines of `page` that ambi-web's development log of a tool's bug would write. */
function toolBugLines(page: Page): string[] {
  const lines: string[] = [];
  page.on('console', (message) => {
    if (message.text().includes('ambi-web: the tool')) lines.push(`${message.type()}: ${message.text()}`);
  });
  return lines;
}

const toolBugResult = {
  text: 'It failed twice.',
  toolResults: [
    { name: 'buggy', ok: false, error: { code: 'crashed', message: expect.stringContaining('length') } },
    { name: 'buggy', ok: false, error: { code: 'crashed', message: expect.stringContaining('length') } },
  ],
};

test("a tool's bug in the production build: the model reads `crashed`, the console says nothing", async ({ page }) => {
  const lines = toolBugLines(page);
  await page.goto(`${origin}/?case=tool-bug`);
  expect(await settledResult(page)).toEqual(toolBugResult);
  expect(lines).toEqual([]);
});

test('localModel runs the tiny GGUF with llama.cpp from the installed package, in the production build', async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto(`${origin}/?case=local`);
  const result = page.locator('#result');
  await expect(result).toHaveAttribute('data-state', /^(ok|error)$/, { timeout: 90_000 });
  expect(await result.getAttribute('data-state'), (await result.textContent()) ?? '').toBe('ok');
  expect(JSON.parse((await result.textContent()) ?? '')).toEqual({ textType: 'string', iterations: 1 });
});

test("the packed package also runs under the consumer's dev server, which pre-bundles it", async ({ page }) => {
  const dev = await startVite([], e2ePort('PACKAGE_DEV'));
  try {
    await page.goto(`http://127.0.0.1:${e2ePort('PACKAGE_DEV')}/`);
    expect(await settledResult(page)).toEqual(expectedResult);
    expect(existsSync(join(app, 'node_modules', '.vite', 'deps', 'ambi-web_worker.js')), 'vite pre-bundled ambi-web/worker').toBe(true);
    // Development: a tool's bug is said once in the console (two calls crashed), naming the tool and onToolError.
    const lines = toolBugLines(page);
    await page.goto(`http://127.0.0.1:${e2ePort('PACKAGE_DEV')}/?case=tool-bug`);
    expect(await settledResult(page)).toEqual(toolBugResult);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^error: ambi-web: the tool "buggy" threw \(call .+, attempt 1\).*onToolError/s);
  } finally {
    await stop(dev);
  }
});
