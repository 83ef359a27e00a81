// The shared-runner test page (e2e/shared-runner.spec.ts): built on its own into dist/shared-e2e
// and served by `vite preview`, so every page of it is a page of one origin.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { packageAliases } from '../../scripts/package-aliases.js';
import { withoutCfworkerFormats } from '../../scripts/without-cfworker-formats.js';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  logLevel: 'warn',
  resolve: { alias: packageAliases },
  plugins: [withoutCfworkerFormats()],
  worker: { format: 'es', plugins: () => [withoutCfworkerFormats()] },
  build: { outDir: fileURLToPath(new URL('../../dist/shared-e2e', import.meta.url)), emptyOutDir: true, target: 'es2022' },
});
