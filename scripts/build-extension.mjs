#!/usr/bin/env node
// Build an unpacked Manifest V3 extension: `node scripts/build-extension.mjs <folder> <out>`.
// The folder has a vite.config.ts made with scripts/extension-vite.ts; its two passes (the pages
// and the service worker, then the content script) write one folder that Chrome's
// "Load unpacked" takes as is.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

const [folder, out] = process.argv.slice(2);
if (!folder || !out) {
  console.error('usage: node scripts/build-extension.mjs <extension folder> <out folder>');
  process.exit(2);
}
const config = join(folder, 'vite.config.ts');
if (!existsSync(config)) {
  console.error(`${config} is missing`);
  process.exit(2);
}
const vite = resolve('node_modules', 'vite', 'bin', 'vite.js');
const env = { ...process.env, EXTENSION_OUT: resolve(out) };
for (const mode of ['pages', 'content']) execFileSync(process.execPath, [vite, 'build', '--config', config, '--mode', mode], { stdio: 'inherit', env });
if (!existsSync(join(out, 'manifest.json'))) {
  console.error(`${out}/manifest.json was not written: put it in ${folder}/public/`);
  process.exit(1);
}
console.log(`Built ${out}: load it in Chrome with "Load unpacked" (chrome://extensions, developer mode).`);
