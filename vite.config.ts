import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import { defineConfig, type ViteUserConfig } from 'vitest/config';
import { playwright } from '@vitest/browser-playwright';
import { chromiumArgs, chromiumArgsWithoutWebMcp, chromiumExecutable } from './chromium.config.js';

/** A strict policy: no eval (WebAssembly compilation only, for the local model), no inline code, no other origins. */
export const DEMO_CSP =
  "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self' blob:; connect-src 'self'; style-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'";

/** The browser tests that run in a Chromium launched without WebMCP (and only there). */
const WITHOUT_WEBMCP = 'tests/browser/**/*.without-webmcp.test.ts';

/** The demo app (`vite build`, `vite dev`) and both Vitest projects. */
const app: ViteUserConfig = {
  // The demo imports the package by its name, as an app would (tsconfig.json `paths` says the same to the type checker).
  resolve: {
    alias: [
      { find: /^ambi-web$/, replacement: fileURLToPath(new URL('./src/index.ts', import.meta.url)) },
      { find: /^ambi-web\/worker$/, replacement: fileURLToPath(new URL('./src/worker/index.ts', import.meta.url)) },
    ],
  },
  worker: { format: 'es' },
  // Listed up front so the dev server never reloads a test page to re-optimise them.
  // wllama is left as is: pre-bundling would cut its wasm and worker code from their URLs.
  optimizeDeps: {
    entries: ['index.html', '*.html'],
    include: ['comlink', 'eventsource-parser', 'ajv', 'idb', '@cfworker/json-schema', 'zod', '@modelcontextprotocol/client'],
    exclude: ['@wllama/wllama'],
  },
  build: { outDir: 'dist/app', target: 'es2022' },
  // `DEMO_CSP=1 vite preview` serves the demo under a strict CSP: no 'unsafe-eval' (e2e/demo-csp.spec.ts).
  preview: {
    headers: process.env.DEMO_CSP
      ? { 'Content-Security-Policy': DEMO_CSP + (process.env.DEMO_CSP_REPORT_URI ? `; report-uri ${process.env.DEMO_CSP_REPORT_URI}` : '') }
      : {},
  },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          environment: 'node',
          include: ['tests/node/**/*.test.ts'],
          // Property and corpus tests run thousands of cases: the default 5 s is too tight on a loaded 2-core machine.
          testTimeout: 30_000,
          // tests/node/call-bookkeeping.test.ts checks that a cancelled deadline lets go of what it held.
          execArgv: ['--expose-gc'],
        },
      },
      {
        extends: true,
        test: {
          name: 'browser',
          include: ['tests/browser/**/*.test.ts'],
          // The reference MCP server, started in Node for the MCP tests (its URL comes through `inject`).
          globalSetup: ['tests/support/mcp-browser-setup.ts'],
          browser: {
            enabled: true,
            headless: true,
            provider: playwright({ launchOptions: { executablePath: chromiumExecutable, args: chromiumArgs } }),
            instances: [
              { browser: 'chromium', exclude: [WITHOUT_WEBMCP] },
              // A second Chromium, launched without WebMCP: what `webmcp_unavailable` looks like for real.
              {
                browser: 'chromium',
                name: 'chromium-without-webmcp',
                include: [WITHOUT_WEBMCP],
                provider: playwright({ launchOptions: { executablePath: chromiumExecutable, args: chromiumArgsWithoutWebMcp } }),
              },
            ],
          },
        },
      },
    ],
  },
};

/** Runtime dependencies stay imports in the page entries: the consumer's bundler resolves and dedupes them. */
const runtimeDependencies = Object.keys(JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')).dependencies ?? {});
const isRuntimeDependency = (id: string) => runtimeDependencies.some((dep) => id === dep || id.startsWith(`${dep}/`));
/** The MCP client, an optional peer dependency: the page entries leave its `import()` to the consumer's bundler. */
const isMcpClient = (id: string) => id === '@modelcontextprotocol/client' || id.startsWith('@modelcontextprotocol/client/');

/**
 * The published build leaves the local model runtime out, for now: `@wllama/wllama` is an optional
 * peer (an app without it must still build), and the runner worker is served as-is (it cannot
 * import it). Its import fails there, so `localModel` reports `runtime_unavailable`; apps built
 * from the sources (the demo) load wllama and its wasm on demand.
 */
function withoutLocalRuntime(): Plugin {
  const stub = '\0ambi-web:no-wllama';
  return {
    name: 'ambi-web:without-local-runtime',
    enforce: 'pre',
    resolveId: (id) => (id.startsWith('@wllama/wllama') ? stub : null),
    load: (id) => (id === stub ? 'throw new Error("this build of ambi-web does not include the local model runtime (@wllama/wllama)");' : null),
  };
}

/**
 * The published package (`vite build --mode lib`): `dist/lib/index.js` and `dist/lib/worker.js`.
 * `base: './'` makes the runner worker's URL relative to the module that starts it, so it
 * resolves wherever the consumer serves the package. The runner worker is a separate
 * bundle (Vite's worker build) with its dependencies inside, so it runs served as-is.
 */
const library: ViteUserConfig = {
  base: './',
  plugins: [withoutLocalRuntime()],
  // The worker is served as-is (a consumer's bundler copies it as an asset): ship it minified, in one file.
  worker: { format: 'es', plugins: () => [withoutLocalRuntime()], rolldownOptions: { output: { minify: true, codeSplitting: false } } },
  build: {
    outDir: 'dist/lib',
    target: 'es2022',
    // The page entries stay readable; the consumer's bundler minifies them with the app.
    minify: false,
    lib: {
      entry: { index: 'src/index.ts', worker: 'src/worker/index.ts' },
      formats: ['es'],
      fileName: (_format, entryName) => `${entryName}.js`,
    },
    rolldownOptions: { external: (id) => isRuntimeDependency(id) || isMcpClient(id), output: { chunkFileNames: 'chunks/[name]-[hash].js' } },
  },
};

export default defineConfig(({ mode }) => (mode === 'lib' ? library : app));
