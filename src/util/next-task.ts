/**
 * Whether this thread is a worker's: there, the page or a tool worker runs a call while this
 * thread goes on, so letting an answer in between pieces of long work saves time; on the page's
 * own thread (and in Node) nothing runs in parallel, and a break only costs.
 */
export const inWorker = typeof (globalThis as { WorkerGlobalScope?: unknown }).WorkerGlobalScope === 'function';

let port: MessagePort | undefined;
const waiting: Array<() => void> = [];

/**
 * Resolve in a task of its own, after the tasks already queued (a message that arrived meanwhile,
 * say a tool's answer). Not `setTimeout(0)`, which browsers clamp to 4 ms once nested, nor
 * `scheduler.yield()`, whose continuation goes ahead of queued messages: a message to itself on
 * one channel for every wait.
 */
export function nextTask(): Promise<void> {
  port ??= openChannel();
  return new Promise((resolve) => {
    waiting.push(resolve);
    port!.postMessage(null);
  });
}

function openChannel(): MessagePort {
  const { port1, port2 } = new MessageChannel();
  port1.onmessage = () => waiting.shift()?.();
  return port2;
}
