import { defineConfig } from '@playwright/test';
import { chromiumArgs, chromiumExecutable } from './chromium.config.js';
import { DEMO_PORT as port, FAKE_OPENAI_PORT } from './e2e/ports.js';

export default defineConfig({
  testDir: 'e2e',
  workers: 1,
  forbidOnly: !!process.env.CI,
  timeout: 60_000,
  reporter: [['list'], ['json', { outputFile: 'reports/playwright.json' }]],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    browserName: 'chromium',
    launchOptions: { executablePath: chromiumExecutable, args: chromiumArgs },
  },
  webServer: [
    {
      command: `npx vite build && npx vite preview --host 127.0.0.1 --port ${port} --strictPort`,
      url: `http://127.0.0.1:${port}`,
      // Never another checkout's server: the ports are picked free (e2e/ports.ts).
      reuseExistingServer: false,
      timeout: 120_000,
    },
    {
      // A scriptable OpenAI-compatible server that streams SSE, for the demo's e2e tests.
      command: `node e2e/fake-openai/server.mjs`,
      url: `http://127.0.0.1:${FAKE_OPENAI_PORT}/health`,
      env: { FAKE_OPENAI_PORT: String(FAKE_OPENAI_PORT) },
      reuseExistingServer: false,
      timeout: 30_000,
    },
  ],
});
