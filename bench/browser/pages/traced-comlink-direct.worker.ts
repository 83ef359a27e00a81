// The plain Comlink reference's worker, traced (session-trace.ts): the tracer's listeners around Comlink's.
import { serveComlinkDirect } from './comlink-direct.js';
import { traceTarget, traceTimers } from './session-trace.js';

const tracer = traceTarget(self as unknown as Worker);
traceTimers(tracer.log);
serveComlinkDirect();
tracer.last();
