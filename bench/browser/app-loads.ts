// Which JavaScript files a built app fetches when it is used (bundle-size counts them):
// `node dist/bench/node/app-loads.js <dir> [page.html]` serves <dir>, opens its index.html (or the page named) in Chromium
// (chromium.config.ts settings), asks one question and waits for the answer, then prints
// `BENCH_LOADS <json>`: every .js path the server was asked for, by the page or by any
// worker, static imports and `import()` chunks alike. The model is an OpenAI-compatible
// endpoint on the same server (the app's baseURL is `./v1`), scripted: one call of the
// page's `read_title` tool, then a text answer, so the run goes through the whole loop.
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize, relative, resolve } from 'node:path';
import { chromium } from 'playwright';
import { chromiumArgs, chromiumExecutable } from '../../chromium.config.js';
import { ANSWER, completions, isCompletions } from '../lib/scripted-model.js';

const root = resolve(process.argv[2] ?? 'dist/bench/bundle/ours');
/** The app's page (index.html unless said). */
const html = process.argv[3] ?? 'index.html';
const types: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.wasm': 'application/wasm' };
const fetched = new Set<string>();

const server = createServer((request, response) => {
  const path = normalize(decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname));
  if (isCompletions(request.method, path)) {
    completions(request, response).catch((error: unknown) => response.writeHead(500).end(String(error)));
    return;
  }
  const file = join(root, path === '/' ? 'index.html' : path);
  if (!file.startsWith(root) || !existsSync(file) || !statSync(file).isFile()) {
    response.writeHead(404).end('not found');
    return;
  }
  if (file.endsWith('.js')) fetched.add(relative(root, file));
  response.writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store' });
  createReadStream(file).pipe(response);
});
await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
const address = server.address();
const origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

const browser = await chromium.launch({ ...(chromiumExecutable ? { executablePath: chromiumExecutable } : {}), args: chromiumArgs });
try {
  const page = await browser.newPage();
  page.on('pageerror', (error) => console.error(`[app-loads] page error: ${error.message}`));
  await page.goto(`${origin}/${html}`);
  await page.fill('input[name=q]', 'What is the title of this page?');
  await page.click('button');
  await page.waitForFunction(
    (answer) => document.querySelector('#out')?.textContent?.includes(answer) && /\(\d+ turns\)/.test(document.querySelector('#out')?.textContent ?? ''),
    ANSWER,
    { timeout: 30_000 },
  );
  // Anything the app would still fetch after the run (it should be nothing) gets a moment to show up.
  await page.waitForTimeout(200);
} finally {
  await browser.close();
  server.close();
}
console.log(`BENCH_LOADS ${JSON.stringify([...fetched].sort())}`);
