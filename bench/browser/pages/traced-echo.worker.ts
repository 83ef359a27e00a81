// The raw echo worker, traced (session-trace.ts): the tracer's listeners around echo.ts's handler.
import { serveEcho } from './echo.js';
import { traceTarget, traceTimers } from './session-trace.js';

const tracer = traceTarget(self as unknown as Worker);
traceTimers(tracer.log);
serveEcho();
tracer.last();
