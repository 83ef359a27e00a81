#!/usr/bin/env node
// `npm run docs:pictures`: makes docs/demo.png and docs/timeline.png again from the demo as it is
// (e2e/demo-pictures.spec.ts, which builds and serves the demo, with UPDATE_DEMO_SCREENSHOT=1).
import { spawnSync } from 'node:child_process';

const { status } = spawnSync('npx', ['playwright', 'test', 'e2e/demo-pictures.spec.ts'], {
  stdio: 'inherit',
  env: { ...process.env, UPDATE_DEMO_SCREENSHOT: '1' },
});
process.exit(status ?? 1);
