#!/usr/bin/env node
// Runs every test: type check, lint and format, the import-cycle check, Vitest (node + browser projects), the MCP conformance suite, Playwright e2e.
// Every step runs even if an earlier one failed; the last line is `tests: N passed, N failed`.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { findChromium } from './find-chromium.mjs';

// The browser projects need a Chromium: find it before anything runs, or stop here with how to get one.
const browser = findChromium();
if (!browser.path) {
  console.error(browser.why);
  console.log('tests: 0 passed, 1 failed');
  process.exit(1);
}
process.env.CHROMIUM_PATH = browser.path;
console.log(`== Chromium: ${browser.path}`);

const reports = 'reports';
rmSync(reports, { recursive: true, force: true });
mkdirSync(reports, { recursive: true });

const run = (label, command, args) => {
  console.log(`\n== ${label}: ${command} ${args.join(' ')}`);
  const { status } = spawnSync(command, args, { stdio: 'inherit', env: process.env });
  return status === 0;
};
const readJson = (file) => (existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined);

let passed = 0;
let failed = 0;
const lines = [];

const typesOk = run('type check', 'npx', ['tsc', '--noEmit', '-p', 'tsconfig.json']);
if (!typesOk) failed += 1; // a broken type check counts as one failure
lines.push(`type check: ${typesOk ? 'ok' : 'FAILED'}`);

// The habits of the house: lint and format (Biome), and no import cycle, type-only imports included (dpdm).
const lintOk = run('lint and format (Biome)', 'npx', ['biome', 'check', '.']);
if (!lintOk) failed += 1;
lines.push(`lint and format: ${lintOk ? 'ok' : 'FAILED'}`);
const cyclesOk = run('import cycles (dpdm)', 'npm', ['run', '-s', 'check:cycles']);
if (!cyclesOk) failed += 1;
lines.push(`import cycles: ${cyclesOk ? 'none' : 'FOUND'}`);

const vitestOk = run('vitest (node + browser)', 'npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${reports}/vitest.json`]);
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

// The official MCP conformance suite, client mode, against agent.mcp() (scripts/mcp-conformance.mjs).
const conformanceOk = run('mcp conformance (client)', process.execPath, ['scripts/mcp-conformance.mjs']);
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

const e2eOk = run('playwright e2e', 'npx', ['playwright', 'test']);
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

console.log(`\n${lines.join('\n')}`);
console.log(`tests: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 && typesOk && lintOk && cyclesOk && vitestOk && conformanceOk && e2eOk ? 0 : 1);
