#!/usr/bin/env node
// Checks the library build in dist/lib (run after `npm run build:lib`; `npm pack` runs it):
// - the runner worker is started from a RELATIVE url to dist/lib/runner.worker.js, an entry the
//   app's bundler builds into its own worker;
// - what the runner worker loads up front leaves the MCP client and the local model runtime
//   (wllama) to `import()`: they load only for a run that needs them;
// - a page that imports `ambi-web/worker` (every name of it but those a runner worker's own file
//   imports: `serveRunner`, `builtInEngines`, `standardExtensions`), bundled as an app's bundler
//   does (tree-shaken), carries neither ajv nor the parser nor the loop nor the MCP client: those
//   load in the runner worker only;
// - `ambi-web/ai-sdk` and `ambi-web/ag-ui` import no package (not even their peers) and nothing of the loop;
// - `ambi-web/extension` (a content script's) imports neither the parser nor the loop nor comlink;
// - no entry imports `@opentelemetry/api` (an optional peer) up front: only with import(), for a traced run;
// - every entry and chunk ships its source map.
// Prints the gzip sizes; exits non-zero on the first broken rule.
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { gzipSize } from '../bench/lib/bundle-graph.mjs';

const lib = 'dist/lib';
const problems = [];
const fail = (message) => problems.push(message);
const read = (file) => readFileSync(file, 'utf8');

/** A module's code with its block and line comments taken out (a `//` after `:` or a quote is kept: a URL). */
const withoutComments = (code) => code.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:"'\\])\/\/.*$/gm, '$1');

const STATIC_IMPORT = /(?:\bfrom\s*|\bimport\s*)["'](\.{1,2}\/[^"']+)["']/g;
const ANY_IMPORT = /(?:\bfrom\s*|\bimport\s*\(?\s*)["'](\.{1,2}\/[^"']+)["']/g;

/** The module and every relative module it imports (statically only, or also with `import()`), transitively. */
function moduleGraph(entry, pattern = ANY_IMPORT) {
  const seen = new Set();
  const visit = (file) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const [, spec] of withoutComments(read(file)).matchAll(pattern)) visit(join(dirname(file), spec));
  };
  visit(entry);
  return [...seen];
}

/** The bare specifiers `files` import statically (`from 'x'`, `import 'x'`). */
const staticExternals = (files) => [
  ...new Set(files.flatMap((f) => [...withoutComments(read(f)).matchAll(/(?:\bfrom\s*|\bimport\s*)["']([^./"'][^"']*)["']/g)].map((m) => m[1]))),
];

const list = (files) => files.map((f) => relative(lib, f)).join(' + ');
const gzipKb = (files) => (files.reduce((sum, f) => sum + gzipSize(f), 0) / 1024).toFixed(2);
const rawKb = (files) => (files.reduce((sum, f) => sum + readFileSync(f).length, 0) / 1024).toFixed(2);

for (const entry of ['index.js', 'worker.js', 'extension.js']) {
  if (!existsSync(join(lib, entry))) fail(`${lib}/${entry} is missing: run npm run build:lib`);
}
/** The names of `ambi-web/worker` for a runner worker's own file, never imported by a page. */
const RUNNER_SIDE = new Set(['serveRunner', 'builtInEngines', 'standardExtensions']);

/**
 * What a page that imports every page-side name of `ambi-web/worker` bundles, tree-shaken as an
 * app's Vite build does it: the files of its chunks (the runner worker it starts is built apart,
 * as an asset, and is not counted). `dispose()` removes them.
 */
async function pageBundle() {
  const names = [...withoutComments(read(join(lib, 'worker.js'))).matchAll(/export\s*\{([^}]*)\}/g)]
    .flatMap((m) => m[1].split(','))
    .map((spec) =>
      spec
        .trim()
        .split(/\s+as\s+/)
        .pop(),
    )
    .filter((name) => name && !RUNNER_SIDE.has(name));
  const dir = mkdtempSync(join(tmpdir(), 'ambi-web-page-'));
  const entry = `export { ${names.join(', ')} } from ${JSON.stringify(resolve(lib, 'worker.js'))};`;
  const { build } = await import('vite');
  await build({
    configFile: false,
    logLevel: 'silent',
    plugins: [{ name: 'page-entry', resolveId: (id) => (id === 'page-entry' ? id : null), load: (id) => (id === 'page-entry' ? entry : null) }],
    worker: { format: 'es' },
    build: {
      outDir: dir,
      emptyOutDir: true,
      minify: false,
      target: 'es2022',
      rolldownOptions: {
        input: 'page-entry',
        preserveEntrySignatures: 'strict',
        // The app's bundler resolves the dependencies; what matters here is which of ours come along.
        external: (id) => /^[@a-z]/i.test(id) && id !== 'page-entry',
        output: { entryFileNames: 'page.js', chunkFileNames: 'page-chunks/[name]-[hash].js' },
      },
    },
  });
  // The page's own files: its entry and what it imports, now or with import() (the runner worker's build sits beside them).
  const files = moduleGraph(join(dir, 'page.js'));
  return { files, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * The source modules a first answer's page loads up front when an app builds it from dist/lib (a
 * dedicated runner, a page tool, an OpenAI-compatible engine: bench/bundle/ours): its entry chunk
 * and the chunks that one imports statically, tree-shaken as an app's Vite build does it. With one
 * file per module in dist/lib the app splits ambi-web as finely as from its sources; chunks of ours
 * that mixed a page's modules with the runner's or a later `import()`'s would load those with it.
 */
async function firstAnswerPage() {
  const entry = [
    `import { createWorkerRunner, defineTool, openAICompatible } from ${JSON.stringify(resolve(lib, 'worker.js'))};`,
    "const runner = createWorkerRunner({ engine: openAICompatible({ baseURL: 'http://127.0.0.1/v1', model: 'm' }) });",
    "runner.tool(defineTool({ name: 'read_title', description: 'The title', parameters: { type: 'object', properties: {} }, readOnly: true, call: () => 'title' }));",
    "void runner.run('Hello').result;",
  ].join('\n');
  const { build } = await import('vite');
  const built = await build({
    configFile: false,
    logLevel: 'silent',
    plugins: [{ name: 'first-answer', resolveId: (id) => (id === 'first-answer' ? id : null), load: (id) => (id === 'first-answer' ? entry : null) }],
    worker: { format: 'es' },
    build: {
      write: false,
      minify: false,
      target: 'es2022',
      modulePreload: false,
      rolldownOptions: { input: 'first-answer', external: (id) => /^[@a-z]/i.test(id) && id !== 'first-answer' },
    },
  });
  const chunks = (Array.isArray(built) ? built[0] : built).output.filter((item) => item.type === 'chunk');
  const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const seen = new Set();
  const visit = (chunk) => {
    if (!chunk || seen.has(chunk)) return;
    seen.add(chunk);
    for (const file of chunk.imports) visit(byFile.get(file));
  };
  visit(chunks.find((chunk) => chunk.isEntry));
  return [...seen].flatMap((chunk) => chunk.moduleIds).map((id) => relative(resolve(lib), id).replaceAll('\\', '/'));
}

if (problems.length === 0) {
  const pageGraph = moduleGraph(join(lib, 'worker.js'));
  const page = await pageBundle();
  const fullGraph = moduleGraph(join(lib, 'index.js'));
  const sources = [...new Set([...pageGraph, ...fullGraph])].map((file) => ({ file, code: read(file) }));

  // The runner worker's url: `new Worker(new URL("../runner.worker.js", import.meta.url), …)`, the pattern bundlers build.
  const workerUrls = sources.flatMap(({ file, code }) =>
    [...code.matchAll(/new Worker\(\s*new URL\(\s*["']([^"']*runner\.worker[^"']*)["']\s*,\s*import\.meta\.url\s*\)/g)].map((m) => ({ from: file, url: m[1] })),
  );
  if (workerUrls.length === 0) fail('no `new Worker(new URL("…runner.worker…", import.meta.url))` in the page entries');
  // A shared runner's SharedWorker (`createWorkerRunner({ shared: true })`) starts the same file.
  const sharedUrls = sources.flatMap(({ file, code }) =>
    [...code.matchAll(/new SharedWorker\(\s*new URL\(\s*["']([^"']*runner\.worker[^"']*)["']\s*,\s*import\.meta\.url\s*\)/g)].map((m) => ({
      from: file,
      url: m[1],
    })),
  );
  if (sharedUrls.length === 0) fail('no `new SharedWorker(new URL("…runner.worker…", import.meta.url))` in the page entries');
  workerUrls.push(...sharedUrls);
  const runnerWorker = join(lib, 'runner.worker.js');
  for (const { from, url } of workerUrls) {
    if (/^(\/|[a-z]+:)/i.test(url)) fail(`the runner worker url is not relative: ${url}`);
    if (join(dirname(from), url) !== runnerWorker) fail(`the runner worker url in ${from} points at ${join(dirname(from), url)}, not ${runnerWorker}`);
  }
  if (existsSync(runnerWorker)) {
    const upFront = moduleGraph(runnerWorker, STATIC_IMPORT);
    const all = moduleGraph(runnerWorker);
    if (!all.some((file) => /TagToolCallParser/.test(read(file)))) fail(`${runnerWorker} does not reach the parser: is it really the runner worker?`);
    for (const lazy of ['@modelcontextprotocol/client', '@wllama/wllama']) {
      if (staticExternals(upFront).some((spec) => spec === lazy || spec.startsWith(`${lazy}/`)))
        fail(`the runner worker imports ${lazy} up front: it must load with import()`);
      if (!all.some((file) => read(file).includes(`import("${lazy}`))) fail(`the runner worker never imports ${lazy}: localModel or mcp() could not work`);
    }
    console.log(
      `runner worker  up front ${list(upFront).slice(0, 60).padEnd(60)} ${rawKb(upFront).padStart(8)} kB, gzip ${gzipKb(upFront).padStart(7)} kB (+ ${staticExternals(upFront).join(', ')})`,
    );
    console.log(`runner worker  in all   ${`${all.length} modules`.padEnd(60)} ${rawKb(all).padStart(8)} kB, gzip ${gzipKb(all).padStart(7)} kB`);
  } else fail(`${runnerWorker} is missing`);
  for (const file of readdirSync(lib, { recursive: true })
    .map((f) => join(lib, f))
    .filter((f) => f.endsWith('.js'))) {
    const code = read(file);
    // Nothing of ours to map: an entry of imports and re-exports only, or the bundler's own helpers and plugins' modules (`_virtual/`).
    if (
      withoutComments(code)
        .replace(/^(?:import|export)\s[^;]*;$/gm, '')
        .trim() === '' ||
      file.includes('rolldown-runtime') ||
      relative(lib, file).startsWith('_virtual')
    )
      continue;
    if (!code.includes(`//# sourceMappingURL=`) || !existsSync(`${file}.map`)) fail(`${file} ships no source map`);
  }
  // Bundled dependencies (each module a file of its own under dist/lib/vendor/<package>/, or, in a
  // file that holds several, marked by its `// node_modules/...` comment) each have their license
  // in THIRD_PARTY_LICENSES.md, which ships with the package.
  const notices = read('THIRD_PARTY_LICENSES.md');
  const shipped = readdirSync(lib, { recursive: true })
    .map((f) => join(lib, f))
    .filter((f) => f.endsWith('.js'));
  const vendored = shipped.map((f) => /^vendor\/((?:@[^/]+\/)?[^/]+)\//.exec(relative(lib, f).replaceAll('\\', '/'))?.[1]).filter(Boolean);
  const bundled = new Set([...vendored, ...shipped.flatMap((f) => [...read(f).matchAll(/^\/\/ node_modules\/((?:@[^/\s]+\/)?[^/\s]+)\//gm)].map((m) => m[1]))]);
  if (bundled.size === 0) fail('no bundled dependency found in dist/lib (ajv and cfworker are): is the vendor/ layout gone?');
  for (const name of bundled) if (!notices.includes(`## ${name} `)) fail(`${name} is bundled into dist/lib but has no license in THIRD_PARTY_LICENSES.md`);
  // cfworker's string formats, which our validator never reads, are left out (scripts/without-cfworker-formats.ts).
  if (shipped.some((f) => read(f).includes('@cfworker/json-schema/dist/esm/format.js')))
    fail("cfworker's format.js is bundled: the build lost withoutCfworkerFormats()");
  if (sources.some(({ code }) => code.includes('"/assets/'))) fail('an absolute "/assets/" url is left in the page entries (base must be "./")');

  // A first answer's page built from the package loads what the same page built from the sources does: no store,
  // MCP, shared runner, JSON conversion or parts checks, nothing of the loop (tests/node/bundle-first-answer.test.ts).
  const firstAnswer = await firstAnswerPage();
  if (!firstAnswer.includes('src/worker/page/worker-runner.js'))
    fail('the first-answer page does not hold src/worker/page/worker-runner.js: is dist/lib still one file per module?');
  const notUpFront =
    /^src\/(store\/|mcp\/|worker\/shared-runner\/(?!protocol)|worker\/runner\/|worker\/page\/(worker-mcp|follow-runner)|tools\/json-output|parts\/normalize|runner\/(run-loop|chat-runner)|parser\/|agent\/|extensions\/)|^vendor\//;
  for (const id of firstAnswer.filter((module) => notUpFront.test(module))) fail(`a first answer's page built from dist/lib loads ${id} up front`);
  console.log(`first answer's page  ${firstAnswer.length} modules up front: ${firstAnswer.filter((id) => id.startsWith('src/')).length} of ambi-web's`);
  // What the page pays for `ambi-web/worker`: no validator compiler, no parser, no loop.
  const forbidden = [
    /@modelcontextprotocol\/client/,
    /\bajv\b/i,
    /(?:class|var|let|const|function)\s+(?:TagToolCallParser|ChatRunner|Agent)\b/,
    /\[TOOL_CALL\]/,
    /iteration_finished/,
    /eventsource-parser/,
  ];
  for (const file of page.files) {
    // Code, not prose: the no-eval validator (offerWebMcpTools validates in the page) names ajv in its comments.
    const code = withoutComments(read(file));
    // The span builder (loaded for a traced run) reads run events, as the UI adapters do: the other markers say whether the loop came along.
    const markers = /\bSpanBuilder\b/.test(code) ? forbidden.filter((pattern) => pattern.source !== 'iteration_finished') : forbidden;
    for (const pattern of markers) if (pattern.test(code)) fail(`${file} (imported by ambi-web/worker) matches ${pattern}`);
  }
  // `@opentelemetry/api` is an optional peer: never imported up front by any entry, only with import() for a traced run.
  for (const entry of ['index.js', 'worker.js', 'extension.js', 'extend.js', 'ai-sdk.js', 'ag-ui.js', 'runner.worker.js']) {
    const upFront = moduleGraph(join(lib, entry), STATIC_IMPORT);
    if (staticExternals(upFront).some((spec) => spec.startsWith('@opentelemetry/')))
      fail(`${entry} imports @opentelemetry/api up front: it must load with import(), for a traced run only`);
  }
  for (const [entry, graph] of [
    ['index.js', fullGraph],
    ['worker.js', pageGraph],
  ])
    if (!graph.some((file) => read(file).includes('import("@opentelemetry/api")'))) fail(`${entry} never imports @opentelemetry/api: a tracer could not work`);
  // The UI adapters carry nothing of their peers (`ai` is typed, never imported; AG-UI is its wire format) nor of the loop.
  for (const entry of ['ai-sdk.js', 'ag-ui.js']) {
    if (!existsSync(join(lib, entry))) {
      fail(`${lib}/${entry} is missing`);
      continue;
    }
    const graph = moduleGraph(join(lib, entry));
    const bare = [
      ...new Set(graph.flatMap((f) => [...withoutComments(read(f)).matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)["']([^./"'][^"']*)["']/g)].map((m) => m[1]))),
    ];
    if (bare.length > 0) fail(`${entry} imports ${bare.join(', ')}: the UI adapters import no package at run time`);
    // `iteration_finished` is a run event the adapters read, not the loop's code: the other markers say whether the loop came along.
    const loop = forbidden.filter((pattern) => pattern.source !== 'iteration_finished');
    for (const file of graph)
      for (const pattern of loop) if (pattern.test(withoutComments(read(file)))) fail(`${file} (imported by ${entry}) matches ${pattern}`);
    console.log(
      `ambi-web/${entry.replace('.js', '').padEnd(8)}${list(graph).slice(0, 40).padEnd(40)} ${rawKb(graph).padStart(8)} kB, gzip ${gzipKb(graph).padStart(7)} kB`,
    );
  }
  // What a content script pays for `ambi-web/extension`: no parser, no loop, no comlink, and ajv only behind
  // the registry's import() that validation 'no-eval' never makes (a bundler drops it with the unused loadAjv).
  const extensionGraph = moduleGraph(join(lib, 'extension.js'), STATIC_IMPORT);
  for (const file of extensionGraph) {
    const code = withoutComments(read(file));
    if (/ajv-validator/.test(file)) fail(`${file} is imported statically by ambi-web/extension`);
    for (const pattern of forbidden.filter((p) => !/ajv/.test(String(p))))
      if (pattern.test(code)) fail(`${file} (imported by ambi-web/extension) matches ${pattern}`);
    if (/\bfrom\s*["']comlink["']/.test(code)) fail(`${file} (imported by ambi-web/extension) imports comlink`);
  }
  const externals = (files) =>
    [...new Set(files.flatMap((f) => [...withoutComments(read(f)).matchAll(/\bfrom\s*["']([^./"'][^"']*)["']/g)].map((m) => m[1])))].join(', ');
  console.log(
    `ambi-web/worker ${`a page of every page-side name, ${page.files.length} files`.padEnd(40)} ${rawKb(page.files).padStart(8)} kB, gzip ${gzipKb(page.files).padStart(7)} kB (+ ${externals(page.files)})`,
  );
  page.dispose();
  console.log(
    `ambi-web/extension ${`${extensionGraph.length} modules`.padEnd(37)} ${rawKb(extensionGraph).padStart(8)} kB, gzip ${gzipKb(extensionGraph).padStart(7)} kB (+ ${externals(extensionGraph) || 'nothing'})`,
  );
  console.log(
    `ambi-web        ${`${fullGraph.length} modules`.padEnd(40)} ${rawKb(fullGraph).padStart(8)} kB, gzip ${gzipKb(fullGraph).padStart(7)} kB (+ ${externals(fullGraph)})`,
  );
}

if (problems.length > 0) {
  for (const problem of problems) console.error(`check-lib: ${problem}`);
  process.exit(1);
}
console.log('check-lib: ok');
