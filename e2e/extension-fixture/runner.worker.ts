// The harness's runner worker: what workers/runner.worker.ts does, with a CSP violation recorder
// started first (e2e/csp/report-violations.ts), so the test sees any eval the runner attempts
// under the extension's CSP.
import { serveRunner } from '../../src/worker/runner/serve-runner.js';
import { reportViolations } from '../csp/report-violations.js';

reportViolations('runner worker');
serveRunner();
