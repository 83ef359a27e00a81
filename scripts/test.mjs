#!/usr/bin/env node
// Runs every test: type check, lint and format, the import-cycle check, Vitest (node + browser projects), the MCP conformance suite, Playwright e2e.
// `--quick` (npm run test:quick) runs the type check and the Node tests only, for the inner loop.
// It says first what it will do and roughly how long each step takes, then how long each took.
// Every step runs even if an earlier one failed; the last line is `tests: N passed, N failed`.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { findChromium } from './find-chromium.mjs';

const quick = process.argv.includes('--quick');
const conformanceInstalled = existsSync('scripts/conformance/node_modules/@modelcontextprotocol/conformance');

// Node 22 is the floor (package.json `engines`): the AI SDK 7 packages and the conformance suite need it.
if (Number(process.versions.node.split('.')[0]) < 22) {
  console.error(
    `ambi-web needs Node 22 or later; this is Node ${process.version}. Install one (nvm: \`nvm install 22\`), ` +
      'or run `bash .ci/run`, which brings Node 22 from the npm registry into scripts/node22/ when the machine has an older one.',
  );
  console.log('tests: 0 passed, 1 failed');
  process.exit(1);
}

// Rough durations, measured on a 2-core machine shared with other work (a quiet one is faster).
const STEPS = [
  { id: 'types', label: 'type check (tsc)', about: '30 s' },
  { id: 'lint', label: 'lint and format (Biome)', about: '3 s', full: true },
  { id: 'cycles', label: 'import cycles (dpdm)', about: '3 s', full: true },
  { id: 'api', label: 'the API reference builds with no warning: every type a public name uses is public (TypeDoc)', about: '25 s', full: true },
  quick ? { id: 'vitest', label: 'vitest, Node project', about: '3 min' } : { id: 'vitest', label: 'vitest, Node and Chromium projects', about: '4 min' },
  {
    id: 'conformance',
    label: 'MCP conformance suite (client mode)',
    about: conformanceInstalled ? '30 s' : '1 min: its first run installs the suite into scripts/conformance/',
    full: true,
  },
  { id: 'e2e', label: 'Playwright e2e: builds the demo, then the demo, strict CSP and the packed package in a fresh Vite app', about: '5 min', full: true },
].filter((step) => !quick || !step.full);

console.log(`== ${quick ? 'npm run test:quick' : 'npm test'}: ${STEPS.length} steps, each runs even if one before failed`);
for (const [i, step] of STEPS.entries()) console.log(`   ${i + 1}. ${step.label} (about ${step.about})`);
if (quick) console.log('   (npm test runs these and the lint, cycle, browser, MCP conformance and e2e steps)');

// The browser projects need a Chromium: find it before anything runs, or stop here with how to get one.
if (!quick) {
  const browser = await findChromium();
  if (!browser.path) {
    console.error(browser.why);
    console.log('tests: 0 passed, 1 failed');
    process.exit(1);
  }
  process.env.CHROMIUM_PATH = browser.path;
  console.log(`== Chromium: ${browser.path}`);
}

const reports = 'reports';
rmSync(reports, { recursive: true, force: true });
mkdirSync(reports, { recursive: true });

const took = [];
const run = (id, command, args) => {
  const step = STEPS.find((s) => s.id === id);
  console.log(`\n== ${STEPS.indexOf(step) + 1}/${STEPS.length} ${step.label} (about ${step.about}): ${command} ${args.join(' ')}`);
  const started = performance.now();
  const { status } = spawnSync(command, args, { stdio: 'inherit', env: process.env });
  const seconds = (performance.now() - started) / 1000;
  took.push(`${step.label}: ${seconds < 90 ? `${seconds.toFixed(0)} s` : `${(seconds / 60).toFixed(1)} min`}`);
  return status === 0;
};
const readJson = (file) => (existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined);

let passed = 0;
let failed = 0;
const lines = [];
let allOk = true;

const typesOk = run('types', 'npx', ['tsc', '--noEmit', '-p', 'tsconfig.json']);
if (!typesOk) failed += 1; // a broken type check counts as one failure
lines.push(`type check: ${typesOk ? 'ok' : 'FAILED'}`);
allOk &&= typesOk;

if (!quick) {
  // The habits of the house: lint and format (Biome), and no import cycle, type-only imports included (dpdm).
  const lintOk = run('lint', 'npx', ['biome', 'check', '.']);
  if (!lintOk) failed += 1;
  lines.push(`lint and format: ${lintOk ? 'ok' : 'FAILED'}`);
  const cyclesOk = run('cycles', 'npm', ['run', '-s', 'check:cycles']);
  if (!cyclesOk) failed += 1;
  lines.push(`import cycles: ${cyclesOk ? 'none' : 'FOUND'}`);
  const apiOk = run('api', 'npx', ['typedoc', '--emit', 'none']);
  if (!apiOk) failed += 1;
  lines.push(`API reference: ${apiOk ? 'ok' : 'WARNINGS'}`);
  allOk &&= lintOk && cyclesOk && apiOk;
}

const vitestArgs = [
  'vitest',
  'run',
  ...(quick ? ['--project', 'node'] : []),
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${reports}/vitest.json`,
];
const vitestOk = run('vitest', 'npx', vitestArgs);
const vitest = readJson(`${reports}/vitest.json`);
if (vitest) {
  passed += vitest.numPassedTests;
  failed += vitest.numFailedTests;
  lines.push(`vitest: ${vitest.numPassedTests} passed, ${vitest.numFailedTests} failed, ${vitest.numPendingTests + vitest.numTodoTests} skipped`);
}
if (!vitestOk && (!vitest || vitest.numFailedTests === 0)) {
  failed += 1; // the run failed without a failing test: a crash, an unhandled error, a missing report
  lines.push('vitest: run failed outside any test');
}
allOk &&= vitestOk;

if (!quick) {
  // The official MCP conformance suite, client mode, against agent.mcp() (scripts/mcp-conformance.mjs).
  const conformanceOk = run('conformance', process.execPath, ['scripts/mcp-conformance.mjs']);
  const conformance = readJson(`${reports}/conformance.json`);
  if (conformance) {
    passed += conformance.passed;
    failed += conformance.failed;
    lines.push(`mcp conformance: ${conformance.passed} passed, ${conformance.failed} failed, ${Object.keys(conformance.skipped).length} skipped`);
  }
  if (!conformanceOk && (!conformance || conformance.failed === 0)) {
    failed += 1;
    lines.push('mcp conformance: run failed outside any check');
  }

  const e2eOk = run('e2e', 'npx', ['playwright', 'test']);
  const e2e = readJson(`${reports}/playwright.json`);
  if (e2e) {
    const { expected = 0, unexpected = 0, flaky = 0, skipped = 0 } = e2e.stats ?? {};
    passed += expected + flaky;
    failed += unexpected;
    lines.push(`playwright: ${expected + flaky} passed, ${unexpected} failed, ${skipped} skipped${flaky ? ` (${flaky} flaky)` : ''}`);
  }
  if (!e2eOk && (!e2e || (e2e.stats?.unexpected ?? 0) === 0)) {
    failed += 1;
    lines.push('playwright: run failed outside any test');
  }
  allOk &&= conformanceOk && e2eOk;
}

console.log(`\ntime taken:\n  ${took.join('\n  ')}`);
console.log(`\n${lines.join('\n')}`);
console.log(`tests: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 && allOk ? 0 : 1);
