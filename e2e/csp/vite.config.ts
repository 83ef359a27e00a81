// The strict-CSP test page (e2e/csp.spec.ts): built on its own into dist/csp and served by
// `vite preview` with a Content-Security-Policy header on every response (the HTML, the
// scripts and the worker scripts: a worker takes its CSP from its own response).
// `CSP=off` serves the same build without it, for the baseline.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/** No 'unsafe-eval', no inline script: what Manifest V3 extensions and strict sites enforce. */
export const STRICT_CSP = "default-src 'self'; script-src 'self'; worker-src 'self' blob:; connect-src 'self'";

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  logLevel: 'warn',
  worker: { format: 'es' },
  build: { outDir: fileURLToPath(new URL('../../dist/csp', import.meta.url)), emptyOutDir: true, target: 'es2022' },
  preview: { headers: process.env.CSP === 'off' ? {} : { 'Content-Security-Policy': STRICT_CSP } },
});
