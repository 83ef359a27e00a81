// The runner worker of the CSP test page: what workers/runner.worker.ts does, with a CSP
// violation reporter started first. (Calls, not bare imports: with `sideEffects: false` a
// bundler drops an import made only for its side effects.)
import * as Comlink from 'comlink';
import { createRunnerHost } from '../../src/worker/runner-host.js';
import { registerTransferHandlers } from '../../src/worker/transfer-handlers.js';
import { reportViolations } from './report-violations.js';

reportViolations('runner worker');
registerTransferHandlers();
Comlink.expose(createRunnerHost());
