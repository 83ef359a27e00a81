// The runner worker, traced (session-trace.ts): the same serveRunner as workers/runner.worker.ts,
// with the tracer's listeners around its own.
import { serveRunner } from '../../../src/worker/runner/serve-runner.js';
import { traceTarget, traceTimers } from './session-trace.js';

const tracer = traceTarget(self as unknown as Worker);
traceTimers(tracer.log);
serveRunner();
tracer.last();
