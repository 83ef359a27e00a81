// bundle-codemode (bench/run.mjs): what Code Mode adds to an app, from two builds of
// bench/bundle/codemode: a page that runs a program (its page code, the sandbox's worker, the
// QuickJS wasm), and a page that imports all of `ambi-web` without running a program, which must
// hold nothing of QuickJS in the page or in the workers it starts (only behind import()).
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { appSizes, gzipSize } from './lib/bundle-graph.mjs';

const QUICKJS = /quickjs|QTS_|emscripten-module/;

/** The figures of the `bundle-codemode` group; throws if the page without Code Mode holds QuickJS. */
export function codemodeBundleFigures(withDir, withoutDir) {
  const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
  const sizes = appSizes(withDir, 'index.html');
  const wasm = readdirSync(join(withDir, 'assets')).filter((name) => name.endsWith('.wasm'));
  if (wasm.length !== 1) throw new Error(`bundle-codemode: expected one .wasm in ${withDir}/assets, found ${wasm.join(', ') || 'none'}`);
  const wasmGzip = gzipSize(join(withDir, 'assets', wasm[0]));
  const without = appSizes(withoutDir, 'without.html');
  const leaked = [...without.page.items, ...without.workers.items].filter((item) => QUICKJS.test(readFileSync(join(withoutDir, item.file), 'utf8')));
  if (leaked.length > 0) throw new Error(`bundle-codemode: ambi-web without Code Mode loads QuickJS in ${leaked.map((i) => i.file).join(', ')}`);
  const info = { baseline: 'none', baselineValue: Number.NaN, ratio: Number.NaN, target: null };
  return [
    {
      name: 'bundle-codemode-worker',
      value: sizes.workers.total / 1024,
      unit: 'KB gzip',
      ...info,
      note: `the sandbox's worker (QuickJS's glue, the bridge), loaded only when a program runs: ${sizes.workers.items.map((i) => `${i.file} ${kb(i.gzip)}`).join(', ')}; all of ambi-web without Code Mode: page ${kb(without.page.total)} + workers ${kb(without.workers.total)}, no QuickJS in either`,
    },
    {
      name: 'bundle-codemode-wasm',
      value: wasmGzip / 1024,
      unit: 'KB gzip',
      ...info,
      note: `QuickJS (release, sync) ${wasm[0]}, fetched by the sandbox's worker`,
    },
    {
      name: 'bundle-codemode-page',
      value: sizes.page.total / 1024,
      unit: 'KB gzip',
      ...info,
      note: `a page whose only code is runProgram and one program (the host's side: start the worker, answer its calls): ${sizes.page.items.map((i) => `${i.file} ${kb(i.gzip)}`).join(', ')}`,
    },
  ];
}
