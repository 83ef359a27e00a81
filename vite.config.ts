import { defineConfig } from 'vitest/config';
import { playwright } from '@vitest/browser-playwright';
import { chromiumArgs, chromiumExecutable } from './chromium.config.js';

export default defineConfig({
  worker: { format: 'es' },
  // Listed up front so the dev server never reloads a test page to re-optimise them.
  optimizeDeps: { include: ['comlink', 'eventsource-parser', 'ajv', 'idb'] },
  build: { outDir: 'dist/app', target: 'es2022' },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          environment: 'node',
          include: ['tests/node/**/*.test.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'browser',
          include: ['tests/browser/**/*.test.ts'],
          browser: {
            enabled: true,
            headless: true,
            provider: playwright({ launchOptions: { executablePath: chromiumExecutable, args: chromiumArgs } }),
            instances: [{ browser: 'chromium' }],
          },
        },
      },
    ],
  },
});
