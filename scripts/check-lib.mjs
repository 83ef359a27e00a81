#!/usr/bin/env node
// Checks the library build in dist/lib (run after `npm run build:lib`; `npm pack` runs it):
// - the runner worker is started from a RELATIVE url and is a file of its own;
// - that worker file imports nothing (it is served as-is, its dependencies inside);
// - `ambi-web/worker` (dist/lib/worker.js and the chunks it imports) carries neither
//   ajv nor the parser nor the loop nor the MCP client: those load in the runner worker only.
// Prints the gzip sizes; exits non-zero on the first broken rule.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { gzipSize } from '../bench/lib/bundle-graph.mjs';

const lib = 'dist/lib';
const problems = [];
const fail = (message) => problems.push(message);
const read = (file) => readFileSync(file, 'utf8');

/** A module's code with its block and line comments taken out (a `//` after `:` or a quote is kept: a URL). */
const withoutComments = (code) => code.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:"'\\])\/\/.*$/gm, '$1');

/** The module and every relative module it imports statically or dynamically, transitively. */
function moduleGraph(entry) {
  const seen = new Set();
  const visit = (file) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const [, spec] of read(file).matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)["'](\.{1,2}\/[^"']+)["']/g)) {
      visit(join(dirname(file), spec));
    }
  };
  visit(entry);
  return [...seen];
}

const gzipKb = (files) => (files.reduce((sum, f) => sum + gzipSize(f), 0) / 1024).toFixed(2);
const rawKb = (files) => (files.reduce((sum, f) => sum + readFileSync(f).length, 0) / 1024).toFixed(2);

for (const entry of ['index.js', 'worker.js']) {
  if (!existsSync(join(lib, entry))) fail(`${lib}/${entry} is missing: run npm run build:lib`);
}
if (problems.length === 0) {
  const pageGraph = moduleGraph(join(lib, 'worker.js'));
  const fullGraph = moduleGraph(join(lib, 'index.js'));
  const sources = [...new Set([...pageGraph, ...fullGraph])].map((file) => ({ file, code: read(file) }));

  // The runner worker's url: `new URL("assets/runner.worker-<hash>.js", import.meta.url)`.
  const workerUrls = sources.flatMap(({ file, code }) =>
    [...code.matchAll(/new URL\(\s*["']([^"']*runner\.worker[^"']*)["']\s*,\s*import\.meta\.url\s*\)/g)].map((m) => ({ from: file, url: m[1] })),
  );
  if (workerUrls.length === 0) fail('no `new URL("…runner.worker…", import.meta.url)` in the page entries');
  const workerFiles = new Set();
  for (const { from, url } of workerUrls) {
    if (/^(\/|[a-z]+:)/i.test(url)) fail(`the runner worker url is not relative: ${url}`);
    const file = join(dirname(from), url);
    if (workerFiles.has(file)) continue;
    workerFiles.add(file);
    if (!existsSync(file)) {
      fail(`the runner worker url in ${from} points at nothing: ${url}`);
      continue;
    }
    const code = read(file);
    if (/(?:^|[;}\s])import\s*(?:[\w*{$][^;]*?\bfrom\s*)?["']|\bimport\s*\(/.test(code)) fail(`${file} imports other modules: it must be self-contained`);
    if (!/\bajv\b|TagToolCallParser/i.test(code)) fail(`${file} lacks the validator or the parser: is it really the runner worker?`);
    console.log(`runner worker  ${relative(lib, file).padEnd(40)} ${rawKb([file]).padStart(8)} kB, gzip ${gzipKb([file]).padStart(7)} kB`);
  }
  if (sources.some(({ code }) => code.includes('"/assets/'))) fail('an absolute "/assets/" url is left in the page entries (base must be "./")');

  // What the page pays for `ambi-web/worker`: no validator compiler, no parser, no loop.
  const forbidden = [
    /@modelcontextprotocol\/client/,
    /\bajv\b/i,
    /(?:class|var|let|const|function)\s+(?:TagToolCallParser|ChatRunner|Agent)\b/,
    /\[TOOL_CALL\]/,
    /iteration_finished/,
    /eventsource-parser/,
  ];
  for (const file of pageGraph) {
    // Code, not prose: the no-eval validator (offerWebMcpTools validates in the page) names ajv in its comments.
    const code = withoutComments(read(file));
    for (const pattern of forbidden) if (pattern.test(code)) fail(`${file} (imported by ambi-web/worker) matches ${pattern}`);
  }
  const list = (files) => files.map((f) => relative(lib, f)).join(' + ');
  const externals = (files) => [...new Set(files.flatMap((f) => [...read(f).matchAll(/\bfrom\s*["']([^./"'][^"']*)["']/g)].map((m) => m[1])))].join(', ');
  console.log(
    `ambi-web/worker ${list(pageGraph).padEnd(40)} ${rawKb(pageGraph).padStart(8)} kB, gzip ${gzipKb(pageGraph).padStart(7)} kB (+ ${externals(pageGraph)})`,
  );
  console.log(
    `ambi-web        ${list(fullGraph).padEnd(40)} ${rawKb(fullGraph).padStart(8)} kB, gzip ${gzipKb(fullGraph).padStart(7)} kB (+ ${externals(fullGraph)})`,
  );
  const unreferenced = readdirSync(join(lib, 'assets')).filter((name) => !workerFiles.has(join(lib, 'assets', name)));
  if (unreferenced.length > 0) console.log(`note: unreferenced assets in ${lib}/assets: ${unreferenced.join(', ')}`);
}

if (problems.length > 0) {
  for (const problem of problems) console.error(`check-lib: ${problem}`);
  process.exit(1);
}
console.log('check-lib: ok');
