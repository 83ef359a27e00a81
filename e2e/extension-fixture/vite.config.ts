// The test harness extension (e2e/extension-hostile.spec.ts), built like the example: scripts/extension-vite.ts.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { extensionConfig } from '../../scripts/extension-vite.js';

export default defineConfig(({ mode }) =>
  extensionConfig(
    fileURLToPath(new URL('.', import.meta.url)),
    process.env.EXTENSION_OUT ?? fileURLToPath(new URL('../../dist/e2e-extension', import.meta.url)),
    mode,
  ),
);
