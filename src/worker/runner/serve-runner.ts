import * as Comlink from 'comlink';
import { createRunnerHost, type ServeRunnerOptions } from './runner-host.js';

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
  Comlink.expose(createRunnerHost(scope, options), scope);
}
