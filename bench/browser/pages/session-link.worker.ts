// Our session link alone, as a reference: the runner worker's port (WorkerPort) calling the page's
// `ping` in a plain loop, as the Comlink reference does, with no runner around it (no reply read,
// no validation, policy, events or results). The page serves `ping` through a PagePort.
import { LazyAbortController } from '../../../src/util/abort-source.js';
import { WorkerPort } from '../../../src/worker/runner/worker-port.js';

const ping = new WorkerPort(self as unknown as Worker).invoker('ping');
// Start messages are objects: the session link hands only arrays to the port.
self.addEventListener('message', async (event: MessageEvent<{ type?: string; n?: number }>) => {
  if (event.data?.type !== 'start') return;
  for (let i = 0; i < event.data.n!; i++) await ping.call({}, { callId: `call_${i}`, attempt: 1, idempotencyKey: `key_${i}` }, new LazyAbortController());
  self.postMessage({ type: 'finished' });
});
