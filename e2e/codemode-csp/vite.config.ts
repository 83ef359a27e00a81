// The Code Mode strict-CSP page (e2e/codemode-csp.spec.ts), built on its own into
// dist/codemode-csp; the spec serves it itself, with the policy on every response.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/** What a strict page or an MV3 extension allows: its own scripts and WebAssembly compilation, no eval. */
export const CODEMODE_CSP =
  "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'";

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: './',
  logLevel: 'warn',
  worker: { format: 'es' },
  build: { outDir: fileURLToPath(new URL('../../dist/codemode-csp', import.meta.url)), emptyOutDir: true, target: 'es2022' },
});
