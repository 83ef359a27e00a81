#!/usr/bin/env node
// Runs the official MCP conformance suite (client mode) against ambi-web's MCP client
// (scripts/mcp-conformance-client.mjs), for the scenarios that apply to a tools client.
// The suite lives in scripts/conformance (its own package.json, apart from the project's
// dependencies) and runs on the project's Node (22 or later: the suite needs fs.globSync), as does
// the client under test.
// Writes reports/conformance.json ({ passed, failed, skipped }) and prints one line per scenario.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const tools = join(root, 'scripts/conformance');
const suite = join(tools, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
const out = join(root, 'reports/conformance');

/** Client scenarios run, and those skipped with why (`conformance list` shows them all). */
const SCENARIOS = ['initialize', 'tools_call', 'sse-retry'];
const SKIPPED = {
  'elicitation-sep1034-client-defaults': 'elicitation is not supported yet: server requests (sampling, elicitation, roots) are declined',
  'auth/*':
    "ambi-web's OAuth is a login in the browser (a popup or a redirect, tokens in IndexedDB), and these scenarios drive a headless Node client that follows the authorization redirect itself; the flows are tested against oidc-provider in Chromium (tests/browser/mcp-oauth.test.ts)",
};

const report = { passed: 0, failed: 0, scenarios: {}, skipped: SKIPPED };
const finish = () => {
  mkdirSync(join(root, 'reports'), { recursive: true });
  writeFileSync(join(root, 'reports/conformance.json'), JSON.stringify(report, null, 2));
  for (const [name, why] of Object.entries(SKIPPED)) console.log(`skipped ${name}: ${why}`);
  console.log(`conformance: ${report.passed} passed, ${report.failed} failed, ${Object.keys(SKIPPED).length} skipped`);
  process.exit(report.failed === 0 ? 0 : 1);
};

if (!existsSync(suite)) {
  console.log('== installing the conformance suite (scripts/conformance)');
  const { status } = spawnSync('npm', ['ci', '--prefix', tools, '--no-audit', '--no-fund'], { stdio: 'inherit' });
  if (status !== 0 || !existsSync(suite)) {
    console.log('could not install scripts/conformance');
    report.failed += 1;
    finish();
  }
}

rmSync(out, { recursive: true, force: true });
for (const scenario of SCENARIOS) {
  const dir = join(out, scenario.replaceAll('/', '_'));
  mkdirSync(dir, { recursive: true });
  const command = `${JSON.stringify(process.execPath)} ${JSON.stringify(join(root, 'scripts/mcp-conformance-client.mjs'))}`;
  // A scenario that hangs (a client waiting on something the suite never sends) fails, bounded.
  const run = spawnSync(process.execPath, [suite, 'client', '--command', command, '--scenario', scenario, '-o', dir], {
    cwd: root,
    encoding: 'utf8',
    timeout: 180_000,
  });
  const checks = readdirSync(dir)
    .map((entry) => join(dir, entry, 'checks.json'))
    .filter((file) => existsSync(file))
    .flatMap((file) => JSON.parse(readFileSync(file, 'utf8')));
  const passed = checks.filter((c) => c.status === 'SUCCESS').length;
  let failed = checks.filter((c) => c.status === 'FAILURE').length;
  // A scenario that failed without a failing check (the client crashed, the suite broke) still fails.
  if (run.status !== 0 && failed === 0) failed = 1;
  if (failed > 0) process.stdout.write(`${run.stdout ?? ''}${run.stderr ?? ''}`);
  report.passed += passed;
  report.failed += failed;
  report.scenarios[scenario] = { passed, failed };
  console.log(`${scenario}: ${passed} passed, ${failed} failed`);
}
finish();
