// The raw baseline: the worker asks the page, the page answers, the worker asks again.
// Same direction and rhythm as a runner worker calling a main-thread tool at concurrency 1.
// `workUs`: busy time before each ask, standing in for a runner's own work per call (a
// reference point: what that much work costs a round trip on this machine).

/** Serve the raw loop in this worker (echo.worker.ts; traced-echo.worker.ts with a tracer around it). */
export function serveEcho(): void {
  let remaining = 0;
  let seq = 0;
  let workUs = 0;

  const ask = () => {
    const start = performance.now();
    while ((performance.now() - start) * 1000 < workUs);
    postMessage({ type: 'call', id: seq++, name: 'ping', args: {} });
  };

  self.onmessage = (event: MessageEvent<{ type: 'start'; n: number; workUs?: number } | { type: 'reply'; id: number }>) => {
    const message = event.data;
    if (message.type === 'start') {
      remaining = message.n;
      workUs = message.workUs ?? 0;
      ask();
    } else if (--remaining > 0) ask();
    else postMessage({ type: 'done' });
  };
}
