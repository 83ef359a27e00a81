import { fileURLToPath } from 'node:url';
import { defineConfig, type UserConfig } from 'vite';
import { withoutCfworkerFormats } from '../scripts/without-cfworker-formats.js';

/**
 * Builds for `npm run bench` (bench/run.mjs calls Vite's `build()` with one mode at a time):
 *
 * - `node`: the Node benchmarks, the Chromium driver and app-loads (what an app fetches), an SSR build, so TypeScript and
 *   our src are compiled the way a user's bundler compiles them; dependencies stay imports.
 * - `browser`: the Chromium benchmark pages, a production build (minified, workers bundled).
 * - `bundle-ours`, `bundle-ours-no-eval` / `bundle-theirs`: the apps whose gzip sizes and cold starts are compared.
 *
 * `BENCH_MINIFY=0` keeps function names readable in CPU profiles.
 */
const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const minify = process.env.BENCH_MINIFY !== '0';

const page = (root: string, input: Record<string, string>, outDir: string): UserConfig => ({
  root: here(root),
  base: './',
  logLevel: 'warn',
  publicDir: false,
  // As the demo's build (vite.config.ts): cfworker's string formats, which ours never reads, are left out.
  plugins: [withoutCfworkerFormats()],
  worker: { format: 'es', plugins: () => [withoutCfworkerFormats()], rolldownOptions: { output: { minify, sourcemap: process.env.BENCH_SOURCEMAP === '1' } } },
  build: {
    outDir: here(outDir),
    emptyOutDir: true,
    target: 'es2022',
    minify,
    manifest: true,
    sourcemap: process.env.BENCH_SOURCEMAP === '1',
    modulePreload: { polyfill: false },
    reportCompressedSize: false,
    rolldownOptions: { input },
  },
});

const configs: Record<string, UserConfig> = {
  node: {
    root: here('..'),
    logLevel: 'warn',
    publicDir: false,
    build: {
      ssr: true,
      outDir: here('../dist/bench/node'),
      emptyOutDir: true,
      target: 'node20',
      minify: false,
      reportCompressedSize: false,
      rolldownOptions: {
        input: { main: here('node/main.ts'), driver: here('browser/driver.ts'), 'app-loads': here('browser/app-loads.ts') },
      },
    },
  },
  browser: page(
    'browser/pages',
    {
      dispatch: here('browser/pages/dispatch.html'),
      snapshot: here('browser/pages/snapshot.html'),
      'local-grammar-cost': here('browser/pages/local-grammar-cost.html'),
      busy: here('browser/pages/busy.html'),
      footprint: here('browser/pages/footprint.html'),
      latency: here('browser/pages/latency.html'),
      resume: here('browser/pages/resume.html'),
      'long-conversation': here('browser/pages/long-conversation.html'),
      conversations: here('browser/pages/conversations.html'),
      answer: here('browser/pages/answer.html'),
      'image-input': here('browser/pages/image-input.html'),
      'codemode-call': here('browser/pages/codemode-call.html'),
      'shared-attach': here('browser/pages/shared-attach.html'),
      'tool-result': here('browser/pages/tool-result.html'),
    },
    '../dist/bench/browser',
  ),
  // One page per build, as an app has: two entries would share a chunk and add Vite's preload lists to it.
  'bundle-ours': page('bundle/ours', { index: here('bundle/ours/index.html') }, '../dist/bench/bundle/ours'),
  'bundle-ours-no-eval': page('bundle/ours', { 'no-eval': here('bundle/ours/no-eval.html') }, '../dist/bench/bundle/ours-no-eval'),
  'bundle-theirs': page('bundle/theirs', { index: here('bundle/theirs/index.html') }, '../dist/bench/bundle/theirs'),
  // bundle-codemode: a page that runs a program, and all of ambi-web without Code Mode.
  'bundle-codemode': page('bundle/codemode', { index: here('bundle/codemode/index.html') }, '../dist/bench/bundle/codemode'),
  'bundle-codemode-without': page('bundle/codemode', { without: here('bundle/codemode/without.html') }, '../dist/bench/bundle/codemode-without'),
};

export default defineConfig(({ mode }) => {
  const config = configs[mode];
  if (!config) throw new Error(`bench/vite.config.ts: unknown mode "${mode}" (one of ${Object.keys(configs).join(', ')})`);
  return config;
});
