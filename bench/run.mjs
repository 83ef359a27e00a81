#!/usr/bin/env node
// `npm run bench [-- name ...]`: builds the benchmark code with Vite (bench/vite.config.ts),
// runs the Node and Chromium benchmarks one at a time, measures the two apps' bundle sizes and
// the example extension's,
// prints a table and writes bench/results/latest.json. Missed targets are reported, not
// failures; a benchmark that crashes makes the exit code non-zero.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { appSizes, gzipSize } from './lib/bundle-graph.mjs';
import { codemodeBundleFigures } from './codemode-bundle.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
process.chdir(root);
const configFile = 'bench/vite.config.ts';
const only = process.argv.slice(2);
const wanted = (name) => only.length === 0 || only.includes(name);

const NODE = [
  'loop-overhead',
  'language-model-engine',
  'tools',
  'runs',
  'conversation',
  'registration',
  'parser-throughput',
  'mcp-call',
  'dispatch-one-thread',
  'codemode',
];
NODE.push('untrusted-hold-overhead');
NODE.push('codemode-20-calls', 'codemode-call-overhead');
NODE.push('dispatch-node');
const BROWSER = [
  'worker-dispatch',
  'cold-start',
  'tool-latency-idle',
  'main-thread-busy',
  'resume-latency',
  'long-conversation',
  'snapshot-io',
  'footprint',
  'grammar-cost',
  'conversations-list',
  'answer-100k-tokens',
];
BROWSER.push('image-input-overhead');
BROWSER.push('codemode-call-overhead-worker');
BROWSER.push('shared-attach-latency');
BROWSER.push('tool-result-1mb');
const ALL = [...NODE, ...BROWSER, 'bundle-size', 'extension-size', 'bundle-codemode'];
for (const name of only) {
  if (!ALL.includes(name)) {
    console.error(`unknown benchmark "${name}"; one of: ${ALL.join(', ')}`);
    process.exit(2);
  }
}
// A partial run must not pass for a whole one: it writes its own file.
const output = only.length === 0 ? 'bench/results/latest.json' : 'bench/results/partial.json';

const measurements = [];
const crashes = [];
const started = performance.now();
const log = (line) => console.error(`[bench ${((performance.now() - started) / 1000).toFixed(1)}s] ${line}`);

// Builds: the Node/driver bundle, the Chromium pages, and the two apps (only what is needed).
const modes = ['node'];
if (BROWSER.some(wanted)) modes.push('browser');
if (wanted('bundle-size') || wanted('cold-start')) modes.push('bundle-ours', 'bundle-ours-no-eval', 'bundle-theirs');
if (wanted('bundle-codemode')) modes.push('bundle-codemode', 'bundle-codemode-without');
for (const mode of modes) {
  log(`vite build (${mode})`);
  await build({ configFile, mode, logLevel: 'warn' });
}

/** The .js files a built app fetched when it ran (bench/browser/app-loads.ts, in Chromium). */
function appLoads(dir, html = 'index.html') {
  const child = spawnSync(process.execPath, ['dist/bench/node/app-loads.js', dir, html], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    env: process.env,
  });
  const line = (child.stdout ?? '').split('\n').find((l) => l.startsWith('BENCH_LOADS '));
  if (child.status !== 0 || !line) throw new Error(`app-loads ${dir}: exit ${child.status ?? child.signal}, no BENCH_LOADS line`);
  return JSON.parse(line.slice('BENCH_LOADS '.length));
}

/** Run a command; throw with its output if it fails. */
function sh(command, args, cwd, env = {}) {
  const child = spawnSync(command, args, { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, env: { ...npmFreeEnv, ...env } });
  if (child.status !== 0)
    throw new Error(`${command} ${args.join(' ')} (in ${cwd}) failed:\n${(child.stdout ?? '').slice(-2000)}\n${(child.stderr ?? '').slice(-2000)}`);
}
// A nested npm must see the temp app as its project, not this one (as e2e/package.spec.ts does).
const npmFreeEnv = Object.fromEntries(
  Object.entries(process.env).filter(([key]) => !/^(npm_(package_|lifecycle_|command$|config_local_prefix$|config_call$)|INIT_CWD$)/i.test(key)),
);

/**
 * The same app as bench/bundle/ours, built by a fresh Vite app from the packed tarball (as a
 * user installs ambi-web): `npm pack` (which builds dist/lib), install, `vite build` with ES
 * module workers, as the README's Install section says, once per page. Returns the two built apps' directories.
 */
function buildPackedApp() {
  const work = 'dist/bench/packed';
  rmSync(work, { recursive: true, force: true });
  mkdirSync(join(work, 'pack'), { recursive: true });
  log('bundle-size: npm pack, then a fresh Vite app installs the tarball');
  sh('npm', ['pack', '--pack-destination', join(work, 'pack'), '--ignore-scripts=false', '--loglevel=error'], root);
  const tarball = readdirSync(join(work, 'pack')).find((name) => name.endsWith('.tgz'));
  const app = join(work, 'app');
  mkdirSync(app);
  for (const file of ['index.html', 'no-eval.html', 'main.ts', 'no-eval.ts']) cpSync(join('bench/bundle/ours', file), join(app, file));
  const main = readFileSync('bench/bundle/ours/app.ts', 'utf8').replace("'../../../src/worker/index.js'", "'ambi-web/worker'");
  writeFileSync(join(app, 'app.ts'), main);
  const { devDependencies } = JSON.parse(readFileSync('package.json', 'utf8'));
  const manifest = {
    name: 'bundle-packed',
    private: true,
    type: 'module',
    dependencies: { 'ambi-web': `file:${join(root, work, 'pack', tarball)}` },
    devDependencies: { vite: devDependencies.vite },
  };
  writeFileSync(join(app, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  writeFileSync(
    join(app, 'vite.config.js'),
    // One page per build (BENCH_PAGE), as for the sources.
    "const page = process.env.BENCH_PAGE ?? 'index.html';\nexport default { base: './', worker: { format: 'es' }, build: { outDir: page === 'index.html' ? 'dist' : 'dist-no-eval', target: 'es2022', manifest: true, modulePreload: { polyfill: false }, rolldownOptions: { input: page } } };\n",
  );
  // Vite's build() above set NODE_ENV=production, under which npm would leave devDependencies (vite) out.
  sh('npm', ['install', '--include=dev', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'], app);
  for (const page of ['index.html', 'no-eval.html']) {
    sh(process.execPath, [join(root, app, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'warn'], app, { BENCH_PAGE: page });
  }
  return { default: join(app, 'dist'), noEval: join(app, 'dist-no-eval') };
}

/** Run a built bench script in its own Node process; collect its `BENCH_RESULT` lines. */
function runChild(label, args) {
  log(label);
  const child = spawnSync(process.execPath, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 64 * 1024 * 1024, env: process.env });
  const lines = (child.stdout ?? '').split('\n');
  for (const line of lines) {
    if (line.startsWith('BENCH_RESULT ')) measurements.push(...JSON.parse(line.slice('BENCH_RESULT '.length)));
    else if (line.trim()) console.error(line);
  }
  if (child.status !== 0) crashes.push(`${label}: exit ${child.status ?? child.signal}`);
}

for (const name of NODE.filter(wanted)) runChild(name, ['dist/bench/node/main.js', name]);
const browserBenches = BROWSER.filter(wanted);
if (browserBenches.length > 0) runChild(`chromium: ${browserBenches.join(', ')}`, ['dist/bench/node/driver.js', 'dist/bench/browser', ...browserBenches]);

if (wanted('bundle-size')) {
  try {
    log('bundle-size: what each app fetches in Chromium when it answers one question');
    // The AI SDK app runs against the same scripted endpoint: what it loads, counted the same way.
    const theirsDir = 'dist/bench/bundle/theirs';
    const theirs = appSizes(theirsDir, 'index.html', appLoads(theirsDir));
    const apps = [
      { suffix: '', what: 'built from the sources', dirs: { default: 'dist/bench/bundle/ours', noEval: 'dist/bench/bundle/ours-no-eval' } },
      { suffix: '-packed', what: 'built by a fresh Vite app from the packed tarball', dirs: buildPackedApp() },
    ];
    for (const { suffix, what, dirs } of apps) {
      const byMode = {
        default: appSizes(dirs.default, 'index.html', appLoads(dirs.default, 'index.html')),
        'no-eval': appSizes(dirs.noEval, 'no-eval.html', appLoads(dirs.noEval, 'no-eval.html')),
      };
      checkUnusedFeatures(byMode.default, dirs.default);
      checkUnusedFeatures(byMode['no-eval'], dirs.noEval);
      measurements.push(...bundleFigures(suffix, what, byMode, theirs));
    }
  } catch (error) {
    crashes.push(`bundle-size: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * A feature a run does not use costs that run nothing in what it loads: the app's first answer (a
 * page tool, no conversation, no MCP, no leaf, no typed answer, no local model, a tool called once)
 * must fetch none of those features' chunks, nor ajv's compiler. Throws naming what it fetched.
 */
function checkUnusedFeatures(sizes, dir) {
  const unused = /(ajv|resume|typed-output|context|run-leaf|connection|lazy-engine|wllama|indexeddb|snapshot|journal|tab-tools|tool-worker)/;
  const loaded = sizes.loadedLazy.items.filter((item) => unused.test(item.file));
  if (loaded.length > 0) throw new Error(`${dir}: a first answer loaded chunks of features it does not use: ${loaded.map((item) => item.file).join(', ')}`);
}

if (wanted('bundle-codemode')) {
  try {
    log('bundle-codemode: the sandbox chunk, and ambi-web without Code Mode');
    measurements.push(...codemodeBundleFigures('dist/bench/bundle/codemode', 'dist/bench/bundle/codemode-without'));
  } catch (error) {
    crashes.push(`bundle-codemode: ${error instanceof Error ? error.message : String(error)}`);
  }
}

if (wanted('extension-size')) {
  try {
    log('extension-size: the example extension (demo/extension), built');
    const dir = 'dist/bench/extension';
    execFileSync(process.execPath, ['scripts/build-extension.mjs', 'demo/extension', dir], {
      stdio: 'ignore',
      env: { ...process.env, EXTENSION_VITE_MANIFEST: '1' },
    });
    measurements.push(...extensionFigures(appSizes(dir, 'panel.html'), gzipSize(join(dir, 'content.js'))));
  } catch (error) {
    crashes.push(`extension-size: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** The example extension's two figures (information, no baseline): its content script, and its panel's page code. */
function extensionFigures(panel, contentScript) {
  const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
  const tabTools = panel.lazy.items.filter((i) => /tab-tools/.test(i.file));
  const onPage = panel.page.total + tabTools.reduce((sum, i) => sum + i.gzip, 0);
  return [
    {
      name: 'bundle-size-extension-content-script',
      value: contentScript / 1024,
      unit: 'KB gzip',
      note: 'content.js: four tab tools, their no-eval validation and the tab wire (ambi-web/extension), one classic script',
    },
    {
      name: 'bundle-size-extension-panel',
      value: onPage / 1024,
      unit: 'KB gzip',
      note: `the side panel's page: entry + static imports ${kb(panel.page.total)}, + tabTools' import() chunk ${tabTools.map((i) => kb(i.gzip)).join(', ')}; its runner worker ${kb(panel.workers.total)} (not counted)`,
    },
  ];
}

/** The bundle figures of one build of our app (default and no-eval pages) against the AI SDK app. */
function bundleFigures(suffix, what, byMode, theirs) {
  const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
  const listed = (files) => (files.items.length ? files.items.map((i) => `${i.file} ${kb(i.gzip)}`).join(', ') : 'none');
  const allJs = (sizes) => sizes.page.total + sizes.workers.total + sizes.loadedLazy.total;
  const theirsAll = allJs(theirs);
  const baseline =
    'the same app on the AI SDK (ai@7 streamText, @ai-sdk/openai-compatible, a zod-validated tool) with its loop in a Comlink worker: page + worker + what it loaded';
  const out = [];
  for (const [mode, target] of [
    ['no-eval', '<= 0.5'],
    ['default', '<= 0.8'],
  ]) {
    const ours = byMode[mode];
    out.push({
      name: `bundle-all-js-${mode}${suffix}`,
      value: allJs(ours) / 1024,
      unit: 'KB gzip',
      baseline,
      baselineValue: theirsAll / 1024,
      ratio: allJs(ours) / theirsAll,
      target,
      note: `${what}; validation ${mode === 'default' ? "'auto' (the default)" : "'no-eval'"}; page ${kb(ours.page.total)} + workers ${kb(ours.workers.total)} (${listed(ours.workers)}) + import() chunks its first answer loaded: ${listed(ours.loadedLazy)}; not loaded: ${listed(ours.lazy)}; theirs: page ${kb(theirs.page.total)}, workers ${kb(theirs.workers.total)}, loaded lazily ${kb(theirs.loadedLazy.total)}`,
    });
  }
  const page = byMode.default.page;
  out.push({
    name: `bundle-page-js${suffix}`,
    value: page.total / 1024,
    unit: 'KB gzip',
    baseline: 'none: a budget',
    baselineValue: null,
    ratio: page.total / 1024,
    target: '<= 12',
    note: `${what}; the page's entry and its static imports: ${listed(page)}; the AI SDK app's page (Comlink and its calls): ${kb(theirs.page.total)}`,
  });
  return out;
}

// Judge each figure against its target (direction written in the target) and round for reading.
// A figure without a target is information: `met` is null, not a pass.
const round = (x, digits) => (Number.isFinite(x) ? Number(x.toPrecision(digits)) : null);
const judge = (ratio, target) => {
  const [, op, bound] = /^(<=|>=)\s*(-?[\d.]+)$/.exec(target) ?? [];
  if (!op || ratio === null) return false;
  return op === '<=' ? ratio <= Number(bound) : ratio >= Number(bound);
};
// `ratio` is the median of the figure's rounds and `range` their lowest and highest: a target is met
// only when the median is.
const results = measurements.map(({ name, value, unit, baseline, baselineValue, ratio, target, range, rounds }) => ({
  name,
  value: round(value, 4),
  unit,
  baseline,
  baselineValue: round(baselineValue, 4),
  ratio: round(ratio, 3),
  range: range ? range.map((x) => round(x, 3)) : null,
  rounds: rounds ?? null,
  target: target ?? null,
  met: target == null ? null : judge(round(ratio, 3), target),
}));

mkdirSync('bench/results', { recursive: true });
writeFileSync(output, `${JSON.stringify(results, null, 2)}\n`);

const rows = [['benchmark', 'ours', 'baseline', 'ratio', 'range (rounds)', 'target', 'met']];
for (const r of results) {
  rows.push([
    r.name,
    `${fmt(r.value)} ${r.unit}`,
    `${fmt(r.baselineValue)}`,
    fmt(r.ratio),
    r.range ? `${fmt(r.range[0])}–${fmt(r.range[1])} (${r.rounds})` : 'one measure',
    r.target ?? 'none (info)',
    r.met === null ? '-' : r.met ? 'yes' : 'NO',
  ]);
}
const widths = rows[0].map((_, c) => Math.max(...rows.map((row) => row[c].length)));
const line = (row) => row.map((cell, c) => cell.padEnd(widths[c])).join('  ');
console.log(`\n${line(rows[0])}\n${widths.map((w) => '-'.repeat(w)).join('  ')}`);
for (const row of rows.slice(1)) console.log(line(row));
console.log('\nnotes:');
for (const m of measurements) console.log(`  ${m.name}: ${m.baseline ? `vs ${m.baseline}; ` : ''}${m.note ?? ''}`);
console.log(
  `\nwrote ${output} (${results.length} figures, ${results.filter((r) => r.met).length} of ${results.filter((r) => r.met !== null).length} targets met) in ${((performance.now() - started) / 1000).toFixed(0)} s`,
);
if (crashes.length > 0) {
  console.error(`\nbenchmarks that crashed:\n  ${crashes.join('\n  ')}`);
  process.exit(1);
}

function fmt(x) {
  if (x === null) return 'n/a';
  if (x === 0) return '0';
  const digits = Math.abs(x) >= 100 ? 0 : Math.abs(x) >= 10 ? 1 : Math.abs(x) >= 1 ? 2 : 3;
  return x.toFixed(digits);
}
