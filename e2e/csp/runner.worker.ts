// The runner worker of the CSP test page: what workers/runner.worker.ts does, with a CSP
// violation reporter started first. (Calls, not bare imports: with `sideEffects: false` a
// bundler drops an import made only for its side effects.)
import { serveRunner } from '../../src/worker/runner/serve-runner.js';
import { reportViolations } from './report-violations.js';

reportViolations('runner worker');
serveRunner();
