#!/usr/bin/env node
// Summarise a .cpuprofile (Chrome DevTools or `node --cpu-prof`): self time by function and
// by source module. Build with BENCH_MINIFY=0 first: unminified Vite output keeps a
// `// src/path.ts` line before each module, which maps a sampled line back to its module.
//   node bench/profile-summary.mjs <profile.cpuprofile> [--dir dist/bench/browser] [--top 25]
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at >= 0 ? args.splice(at, 2)[1] : fallback;
};
const dir = option('--dir', 'dist/bench/browser');
const top = Number(option('--top', '25'));
const callersOf = option('--callers', undefined);
const file = args[0];
if (!file) {
  console.error('usage: node bench/profile-summary.mjs <profile.cpuprofile> [--dir served-dir] [--top N]');
  process.exit(2);
}

const profile = JSON.parse(readFileSync(file, 'utf8'));
const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
const deltas = profile.timeDeltas ?? [];
const selfUs = new Map();
profile.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (deltas[i + 1] ?? deltas[i] ?? 0)));
const total = [...selfUs.values()].reduce((a, b) => a + b, 0);

// Source module of (url, line): the nearest `// path` region comment above that line.
const regionCache = new Map();
function moduleOf(url, line) {
  if (!url) return '(native)';
  let path;
  if (url.startsWith('file://')) path = fileURLToPath(url);
  else if (url.startsWith('http')) path = join(dir, new URL(url).pathname);
  if (!path || !existsSync(path)) return url.split('/').pop() || '(native)';
  if (!regionCache.has(path)) {
    const regions = [];
    readFileSync(path, 'utf8')
      .split('\n')
      .forEach((text, i) => {
        const match = /^\/\/ ((?:src|node_modules|workers|bench|\\0)[^\s]*)$/.exec(text) ?? /^\/\/#region (\S+)/.exec(text);
        if (match) regions.push([i, match[1].replace(/^node_modules\/(@[^/]+\/[^/]+|[^/]+).*/, 'node_modules/$1')]);
      });
    regionCache.set(path, regions);
  }
  let found = url.split('/').pop();
  for (const [at, name] of regionCache.get(path)) {
    if (at > line) break;
    found = name;
  }
  // A dependency's own bundle names its modules `src/...` too: say whose they are.
  const owner = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(path)?.[1];
  return owner && !found.startsWith('node_modules/') ? `${owner}:${found}` : found;
}

const byFunction = new Map();
const byModule = new Map();
for (const [id, us] of selfUs) {
  const { callFrame } = nodes.get(id);
  const module = moduleOf(callFrame.url, callFrame.lineNumber);
  const name = `${callFrame.functionName || '(anonymous)'}  ${module}:${callFrame.lineNumber + 1}`;
  byFunction.set(name, (byFunction.get(name) ?? 0) + us);
  byModule.set(module, (byModule.get(module) ?? 0) + us);
}

const show = (title, map) => {
  console.log(`\n${title}`);
  for (const [name, us] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(`  ${(us / 1000).toFixed(1).padStart(8)} ms  ${((us / total) * 100).toFixed(1).padStart(5)}%  ${name}`);
  }
};
console.log(`${file}: ${(total / 1000).toFixed(1)} ms sampled`);
if (callersOf) {
  // Self time of a function, split by its call path (up to 4 frames): who pays for it.
  const parents = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
  const paths = new Map();
  for (const [id, us] of selfUs) {
    if (nodes.get(id).callFrame.functionName !== callersOf) continue;
    const frames = [];
    for (let at = parents.get(id); at !== undefined && frames.length < 4; at = parents.get(at)) {
      const { callFrame } = nodes.get(at);
      frames.push(`${callFrame.functionName || '(anon)'}@${moduleOf(callFrame.url, callFrame.lineNumber).split('/').pop()}:${callFrame.lineNumber + 1}`);
    }
    const key = frames.join(' < ');
    paths.set(key, (paths.get(key) ?? 0) + us);
  }
  show(`self time of ${callersOf}, by caller path`, paths);
}
show('self time by module', byModule);
show('self time by function', byFunction);
