import type * as Comlink from 'comlink';
import { exposeRunnerHost, type ServeRunnerOptions } from './runner-host.js';

export type { ServeRunnerOptions } from './runner-host.js';

/**
 * Serve a runner in this worker, for a page's `createWorkerRunner({ worker })`: its API over
 * Comlink, and through the same channel its calls of the page's tools. `engines` adds engine
 * kinds (the built-in ones stay), `extensions` adds extensions to every run. ambi-web's own
 * runner worker is `serveRunner({ engines: builtInEngines, extensions: standardExtensions })`.
 * For a worker file only: a page that imports `ambi-web/worker` without calling it never carries
 * the runner's code.
 *
 * @example
 * ```ts
 * // my-runner.worker.ts, which the page starts with createWorkerRunner({ worker, engine: { kind: 'echo' } })
 * import { builtInEngines, serveRunner, standardExtensions } from 'ambi-web/worker';
 *
 * serveRunner({
 *   engines: {
 *     ...builtInEngines,
 *     echo: () => ({ nativeTools: true, async *stream(request) { yield { type: 'text', text: String(request.messages.at(-1)?.content) }; yield { type: 'finish', reason: 'stop' }; } }),
 *   },
 *   extensions: standardExtensions,
 * });
 * ```
 */
export function serveRunner(options: ServeRunnerOptions = {}, scope: Comlink.Endpoint = self as unknown as Comlink.Endpoint): void {
  // Started as a SharedWorker (`createWorkerRunner({ shared: true })`): the origin's runner, for every page's port.
  if ('onconnect' in scope) return serveOrigin(scope as unknown as EventTarget, options);
  exposeRunnerHost(scope, options);
  // A leading tab's first message makes this dedicated worker the origin's runner (where there is no SharedWorker).
  const first = (event: Event) => {
    scope.removeEventListener('message', first);
    const { data, ports } = event as MessageEvent;
    if (typeof data === 'object' && data !== null && LEAD in data && ports[0]) {
      const port = ports[0];
      void import('../shared-runner/serve-shared.js').then(({ leadOrderOf, leadOrigin }) => {
        const order = leadOrderOf(data);
        if (order) leadOrigin(order, port, options);
      });
    }
  };
  scope.addEventListener('message', first);
}

const LEAD = 'ambi-web:lead';

/** A SharedWorker's ports, each a page's, served by the origin's runner once its code loaded (a port waits until then). */
function serveOrigin(scope: EventTarget, options: ServeRunnerOptions): void {
  const waiting: MessagePort[] = [];
  let take: (port: MessagePort) => void = (port) => void waiting.push(port);
  scope.addEventListener('connect', (event) => {
    const port = (event as MessageEvent).ports[0];
    if (port) take(port);
  });
  void import('../shared-runner/serve-shared.js').then(({ originOfPorts }) => {
    take = originOfPorts(options);
    for (const port of waiting.splice(0)) take(port);
  });
}
