// The ports the e2e servers listen on: free ones, picked once per `playwright test`.
// Playwright loads its config in the runner and again in each worker; the runner picks
// the ports and leaves them in the environment, which the workers inherit, so every
// process agrees. A server left on a port by another checkout is never reused: each
// port is free when picked, and every server is started with --strictPort.
import { execFileSync } from 'node:child_process';

const names = ['DEMO', 'FAKE_OPENAI', 'PACKAGE', 'PACKAGE_DEV', 'PACKAGE_CHAT', 'CSP_STRICT', 'CSP_OPEN', 'DEMO_CSP', 'EXTENSION_PAGES', 'SHARED'] as const;
type PortName = (typeof names)[number];

/** Ask the OS for `count` distinct free ports on 127.0.0.1 (synchronously: a config cannot await). */
function freePorts(count: number): number[] {
  const script = `
    const net = require('node:net');
    const servers = [];
    let left = ${count};
    for (let i = 0; i < ${count}; i++) {
      const server = net.createServer();
      servers.push(server);
      server.listen(0, '127.0.0.1', () => {
        if (--left === 0) {
          process.stdout.write(servers.map((s) => s.address().port).join(','));
          for (const s of servers) s.close();
        }
      });
    }`;
  return execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }).split(',').map(Number);
}

if (names.some((name) => !process.env[`AMBI_E2E_${name}_PORT`])) {
  const picked = freePorts(names.length);
  names.forEach((name, i) => {
    process.env[`AMBI_E2E_${name}_PORT`] = String(picked[i]);
  });
}

/** The port picked for one of the e2e servers. */
export function e2ePort(name: PortName): number {
  return Number(process.env[`AMBI_E2E_${name}_PORT`]);
}

export const DEMO_PORT = e2ePort('DEMO');
export const FAKE_OPENAI_PORT = e2ePort('FAKE_OPENAI');
/** The fake OpenAI-compatible server's origin (scripts, recorded requests, CSP reports). */
export const FAKE_ORIGIN = `http://127.0.0.1:${FAKE_OPENAI_PORT}`;
