import * as Comlink from 'comlink';
import type { RunnerWorkerApi } from '../wire/protocol.js';
import type { ServeRunnerOptions } from './runner-host.js';

export type { ServeRunnerOptions } from './runner-host.js';

/** Every method of the runner's API, so the served API forwards each one (the compiler checks the list is whole). */
const METHODS = {
  configure: true,
  registerTools: true,
  unregisterTool: true,
  startRun: true,
  abort: true,
  mcpConnect: true,
  mcpRefresh: true,
  mcpClose: true,
  approve: true,
  deny: true,
  suspend: true,
  resumeRun: true,
  pendingApprovals: true,
  cassette: true,
} satisfies Record<keyof RunnerWorkerApi, true>;

/**
 * Serve a runner in this worker, for a page's `createWorkerRunner({ worker })`: its API over
 * Comlink, and through the same channel its calls of the page's tools. `engines` adds engine
 * kinds (the built-in ones stay), `extensions` adds extensions to every run. ambi-web's own
 * runner worker is `serveRunner({ engines: builtInEngines, extensions: standardExtensions })`.
 *
 * The API is served at once (no message of the page is missed); the runner's code (the loop, the
 * parser, the validators, the wire's error handlers) loads with `import()` as it starts, and every
 * call waits for it: this module imports nothing of ambi-web up front, so a page that imports
 * `ambi-web/worker` without calling it never carries the runner, whatever its bundler does.
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
  const host = import('./runner-host.js').then(({ createRunnerHost }) => createRunnerHost(scope, options));
  // A failed load fails every call with why; nothing is left unhandled meanwhile.
  host.catch(() => {});
  const api = Object.fromEntries(
    Object.keys(METHODS).map((name) => [
      name,
      async (...args: unknown[]) => ((await host)[name as keyof RunnerWorkerApi] as (...a: unknown[]) => unknown)(...args),
    ]),
  );
  Comlink.expose(api, scope);
}
