import { defineConfig } from '@playwright/test';
import { chromiumArgs, chromiumExecutable } from './chromium.config.js';

const port = 4173;
export const FAKE_OPENAI_PORT = 4310;

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
      reuseExistingServer: !process.env.CI,
      timeout: 120_000,
    },
    {
      // A scriptable OpenAI-compatible server that streams SSE, for the demo's e2e tests.
      command: `node e2e/fake-openai/server.mjs`,
      url: `http://127.0.0.1:${FAKE_OPENAI_PORT}/health`,
      env: { FAKE_OPENAI_PORT: String(FAKE_OPENAI_PORT) },
      reuseExistingServer: !process.env.CI,
      timeout: 30_000,
    },
  ],
});
