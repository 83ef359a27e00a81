import { readFileSync } from 'node:fs';
import type { Plugin } from 'vite';
import { defineConfig, type ViteUserConfig } from 'vitest/config';
import { playwright } from '@vitest/browser-playwright';
import { chromiumArgs, chromiumArgsWithoutWebMcp, chromiumExecutable } from './chromium.config.js';
import { packageAliases } from './scripts/package-aliases.js';
import { withoutCfworkerFormats } from './scripts/without-cfworker-formats.js';
import { oauthConsent, oauthRedirectLogin } from './tests/support/oauth/login-commands.js';

/** A strict policy: no eval (WebAssembly compilation only, for the local model), no inline code, no other origins. */
export const DEMO_CSP =
  "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self' blob:; connect-src 'self'; style-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'";

/** The browser tests that run in a Chromium launched without WebMCP (and only there). */
const WITHOUT_WEBMCP = 'tests/browser/**/*.without-webmcp.test.ts';

/** The demo app (`vite build`, `vite dev`) and both Vitest projects. */
const app: ViteUserConfig = {
  // The demo imports the package by its name, as an app would (tsconfig.json `paths` says the same to the type checker).
  resolve: { alias: packageAliases },
  plugins: [withoutCfworkerFormats()],
  worker: { format: 'es', plugins: () => [withoutCfworkerFormats()] },
  // Listed up front so the dev server never reloads a test page to re-optimise them.
  // wllama is left as is: pre-bundling would cut its wasm and worker code from their URLs.
  optimizeDeps: {
    entries: ['index.html', '*.html'],
    include: [
      'comlink',
      'eventsource-parser',
      'ajv',
      'idb',
      '@cfworker/json-schema',
      'zod',
      '@modelcontextprotocol/client',
      // The UI adapters' peers, in the AI SDK example and the adapters' tests.
      'ai',
      '@ai-sdk/react',
      // The provider packages the custom runner worker's tests build models with.
      '@ai-sdk/anthropic',
      '@ai-sdk/google',
      '@ai-sdk/openai',
      // The provider packages the custom runner worker's tests build models with.
      '@ai-sdk/anthropic',
      '@ai-sdk/google',
      '@ai-sdk/openai',
      'react',
      'react/jsx-dev-runtime',
      'react-dom/client',
      '@ag-ui/client',
      '@ag-ui/core/schemas',
      'rxjs',
      // The traces tests' OpenTelemetry API and in-memory SDK.
      '@opentelemetry/api',
      '@opentelemetry/sdk-trace-base',
      // Code Mode's sandbox (its wasm variant is left as is, as wllama is).
      'quickjs-emscripten-core',
    ],
    exclude: ['@wllama/wllama', '@jitl/quickjs-wasmfile-release-sync'],
  },
  // The demo, and the AI SDK example (`useChat` on `ambi-web/ai-sdk`) as a page of its own.
  build: {
    outDir: 'dist/app',
    target: 'es2022',
    rolldownOptions: {
      input: { main: 'index.html', 'ai-sdk': 'demo/ai-sdk/index.html' },
      // Two pages share modules, and a chunk one page loads on demand (`ambi-web`) may import the
      // other page's entry chunk for them: each module then runs only when something needs it, so
      // the other page's own top-level code never runs here.
      output: { strictExecutionOrder: true },
      // React libraries mark modules 'use client' (a server-components hint): meaningless in this client-only bundle.
      onwarn(warning, warn) {
        if (warning.code !== 'MODULE_LEVEL_DIRECTIVE') warn(warning);
      },
    },
  },
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
          // The reference MCP server, started in Node for the MCP tests (its URL comes through `inject`);
          // the MCP login tests' authorization servers (tests/support/oauth-browser-setup.ts);
          // the docs' snippets that run in a page, and their fake model server.
          globalSetup: ['tests/support/mcp-browser-setup.ts', 'tests/support/oauth-browser-setup.ts', 'tests/support/docs-snippets-setup.ts'],
          browser: {
            enabled: true,
            // The person in a login popup (another origin, out of the test page's reach).
            commands: { oauthConsent, oauthRedirectLogin },
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

/**
 * Runtime dependencies stay imports in every entry, the runner worker's too: the consumer's bundler
 * resolves and dedupes them. So do optional peers (`@opentelemetry/api`, loaded with `import()`
 * only for a traced run): an app without them still builds (Vite stands in a module that throws).
 */
const manifest = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));
const runtimeDependencies = [...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.peerDependencies ?? {})];
// ajv is CommonJS, and an app's Vite dev server serves the runner worker from node_modules as is,
// without converting the CommonJS it imports: ajv is a devDependency, bundled into ambi-web's own
// (lazy) chunk, not an import left to the app.
const isRuntimeDependency = (id: string) => runtimeDependencies.some((dep) => id === dep || id.startsWith(`${dep}/`));

/** Where the published runner worker lands: an entry of its own, next to index.js and worker.js. */
const RUNNER_WORKER_FILE = 'runner.worker.js';
const RUNNER_WORKER_SOURCE = /\/src\/worker\/(page\/runner-link|shared-runner\/page-connection)\.ts$/;
const RUNNER_WORKER_PLACEHOLDER = '__AMBI_WEB_RUNNER_WORKER_URL__';

/**
 * The runner worker as an entry the app's bundler builds into its own worker. The page code's
 * `new Worker(new URL('../../../workers/runner.worker.ts', import.meta.url))` is hidden from
 * Vite's worker plugin here (which would bundle it into one file), then written back as
 * `new Worker(new URL('./runner.worker.js', import.meta.url))`, relative to the chunk that holds
 * it. The consumer's bundler sees that pattern and builds the worker with the app: as an ES module
 * worker (`worker.format: 'es'`), what a run needs loads on demand as sibling chunks.
 */
function runnerWorkerAsEntry(): Plugin {
  return {
    name: 'ambi-web:runner-worker-entry',
    enforce: 'pre',
    transform(code, id) {
      if (!RUNNER_WORKER_SOURCE.test(id)) return null;
      const replaced = code.replaceAll(
        "new URL('../../../workers/runner.worker.ts', import.meta.url)",
        `new URL(${RUNNER_WORKER_PLACEHOLDER}, import.meta.url)`,
      );
      if (replaced === code) this.error(`${id} no longer starts ../../../workers/runner.worker.ts: update vite.config.ts`);
      return { code: replaced, map: null };
    },
    renderChunk(code, chunk) {
      if (!code.includes(RUNNER_WORKER_PLACEHOLDER)) return null;
      const up = chunk.fileName.split('/').length - 1;
      const url = (up === 0 ? './' : '../'.repeat(up)) + RUNNER_WORKER_FILE;
      return { code: code.replaceAll(RUNNER_WORKER_PLACEHOLDER, JSON.stringify(url)), map: null };
    },
  };
}

/**
 * The published package (`vite build --mode lib`): `dist/lib/index.js`, `dist/lib/worker.js`,
 * `dist/lib/extension.js`, `dist/lib/extend.js` and `dist/lib/runner.worker.js`, with source maps.
 * Nothing is bundled in: every dependency stays an import (wllama and its wasm `?url` included),
 * resolved by the app's bundler. Every module stays a file of its own (`dist/lib/src/…`; the few
 * bundled devDependencies, ajv and cfworker, under `dist/lib/vendor/`), so the app's bundler splits
 * ambi-web as finely as its sources: a chunk of ours that held a module the page needs and one only
 * the runner or a later `import()` needs would load both with the page.
 */
const library: ViteUserConfig = {
  base: './',
  plugins: [runnerWorkerAsEntry(), withoutCfworkerFormats()],
  build: {
    outDir: 'dist/lib',
    target: 'es2022',
    // Readable: the consumer's bundler minifies everything with the app.
    minify: false,
    sourcemap: true,
    lib: {
      entry: {
        index: 'src/index.ts',
        worker: 'src/worker/index.ts',
        'ai-sdk': 'src/ai-sdk/index.ts',
        'ag-ui': 'src/ag-ui/index.ts',
        extension: 'src/extension/index.ts',
        // What an author of an extension, an engine or a store needs (types, and a few values).
        extend: 'src/extend/index.ts',
        'runner.worker': 'workers/runner.worker.ts',
      },
      formats: ['es'],
      // npm leaves every `node_modules` folder out of a tarball: bundled dependencies' modules go to `vendor/`.
      fileName: (_format, entryName) => `${entryName.replace(/^node_modules\//, 'vendor/')}.js`,
    },
    rolldownOptions: { external: isRuntimeDependency, output: { preserveModules: true, preserveModulesRoot: '.' } },
  },
};

export default defineConfig(({ mode }) => (mode === 'lib' ? library : app));
