#!/usr/bin/env node
// After `tsc -p tsconfig.build.json`: keep only the declaration files that the public entries'
// declarations reach (dist/types/index.d.ts and the subpath entries' index.d.ts), so internals whose
// types no public name mentions (the draft-07 meta-schema, the runner worker's host) are not shipped.
import { existsSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

const types = 'dist/types';
const entries = ['index.d.ts', 'worker/index.d.ts', 'ai-sdk/index.d.ts', 'ag-ui/index.d.ts', 'extension/index.d.ts', 'extend/index.d.ts'].map((file) =>
  resolve(types, file),
);
const reached = new Set();

/** The file a relative specifier in a declaration names (`./x.js` → `./x.d.ts`). */
function declarationOf(from, spec) {
  const base = resolve(dirname(from), spec.replace(/\.js$/, ''));
  return [`${base}.d.ts`, join(base, 'index.d.ts')].find(existsSync);
}

const visit = (file) => {
  if (reached.has(file)) return;
  reached.add(file);
  const code = readFileSync(file, 'utf8');
  for (const [, spec] of code.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)["'](\.{1,2}\/[^"']+)["']/g)) {
    const target = declarationOf(file, spec);
    if (target) visit(target);
  }
};
for (const entry of entries) {
  if (!existsSync(entry)) throw new Error(`${entry} is missing: did tsc -p tsconfig.build.json run?`);
  visit(entry);
}

let removed = 0;
for (const file of readdirSync(types, { recursive: true }).map((f) => resolve(types, String(f)))) {
  if (file.endsWith('.d.ts') && !reached.has(file)) {
    rmSync(file);
    removed++;
  }
}
// Folders left empty.
for (const dir of readdirSync(types, { recursive: true, withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => join(d.parentPath, d.name))
  .reverse()) {
  if (readdirSync(dir).length === 0) rmSync(dir, { recursive: true });
}
console.log(`prune-types: kept ${reached.size} declaration files, removed ${removed}`);
