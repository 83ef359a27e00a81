// The harness page: an extension page that hands the tests what they drive (ambi-web's page entry,
// a runner on the recording runner worker, chrome.tabs), and records CSP violations from its start.
import * as ambi from 'ambi-web/worker';

interface Violation {
  realm: string;
  directive: string;
  blockedURI: string;
}
const violations: Violation[] = [];
document.addEventListener('securitypolicyviolation', (event) => {
  violations.push({ realm: 'harness page', directive: event.effectiveDirective, blockedURI: event.blockedURI });
});

/** A runner on the recording runner worker; `validation` left to ambi-web unless given. */
function runner(options: Omit<ambi.WorkerRunnerOptions, 'worker'>): ambi.WorkerRunner {
  return ambi.createWorkerRunner({ ...options, worker: () => new Worker(new URL('./runner.worker.ts', import.meta.url), { type: 'module' }) });
}

/** What the workers recorded, asked over their BroadcastChannel. */
async function workerViolations(): Promise<Violation[]> {
  const channel = new BroadcastChannel('csp-test');
  const seen: Violation[] = [];
  channel.addEventListener('message', (event) => {
    if (event.data?.type === 'violations') seen.push(...event.data.violations);
  });
  channel.postMessage('report');
  await new Promise((resolve) => setTimeout(resolve, 300));
  channel.close();
  return seen;
}

/** Start the eval probe and resolve with what it says of its attempt. */
function probeEval(): Promise<string> {
  const worker = new Worker(new URL('./eval-probe.worker.ts', import.meta.url), { type: 'module' });
  return new Promise((resolve) => worker.addEventListener('message', (event) => resolve(String(event.data)), { once: true }));
}

Object.assign(globalThis, { ambi, harness: { runner, violations, workerViolations, probeEval } });
document.querySelector('#ready')!.textContent = 'ready';
