import type * as Comlink from 'comlink';
import type { AmbiError } from '../../errors/ambi-error.js';
import { InvalidOptionError } from '../../errors/invalid-option-error.js';
import type { EngineConfig } from '../../engines/config.js';
import type { PageIdentity, RunnerWorkerFactory } from '../shared-runner/protocol.js';
import { onWorkerDeath } from '../wire/worker-life.js';
import { SwitchEndpoint } from './switch-endpoint.js';
import type { Followers } from './follow-runner.js';

/** How a WorkerRunner reaches its runner: where Comlink talks, who the page is, and how it lets go. */
export interface RunnerLink {
  /** Comlink's endpoint, the same for the page's whole life. */
  readonly endpoint: Comlink.Endpoint;
  /** The page's identity once the runner may be configured (a shared runner's); undefined for a runner of its own. */
  identity(): Promise<PageIdentity | undefined>;
  /** A runner of its own is terminated; a shared one is let go of, as a closed tab would. */
  close(): void;
}

/** What a WorkerRunner's options say of its runner worker. */
export interface LinkOptions {
  shared?: boolean;
  worker?: RunnerWorkerFactory;
  engine: EngineConfig;
}

/**
 * The page's link to its runner: a worker of its own, or the origin's shared one (`shared`),
 * whose changes (another tab leads) `followers` follow. `die` hears the runner's end.
 */
export function openLink({ shared, worker, engine }: LinkOptions, die: (error: AmbiError) => void, followers: () => Followers): RunnerLink {
  const dedicated = () => new Worker(new URL('../../../workers/runner.worker.ts', import.meta.url), { type: 'module' });
  return shared ? sharedLink(worker, dedicated, engine, die, followers) : dedicatedLink(worker, dedicated, die);
}

/** A runner worker of the page's own, made by `make` (an app's) or `dedicated` (ambi-web's); `die` hears its crash. */
function dedicatedLink(make: RunnerWorkerFactory | undefined, dedicated: () => Worker, die: (error: AmbiError) => void): RunnerLink {
  const worker = make ? make('dedicated') : dedicated();
  if (!(worker instanceof Worker)) throw new InvalidOptionError('worker', 'it returned a SharedWorker: pass `shared: true` for a runner the tabs share');
  onWorkerDeath(worker, 'runner worker', die);
  return { endpoint: worker, identity: () => Promise.resolve(undefined), close: () => worker.terminate() };
}

/**
 * The origin's runner, shared by its tabs (`shared: true`). What connects to it loads on first
 * use, so a page whose runner is its own never carries it.
 */
function sharedLink(
  make: RunnerWorkerFactory | undefined,
  dedicated: () => Worker,
  engine: EngineConfig,
  die: (error: AmbiError) => void,
  followers: () => Followers,
): RunnerLink {
  const endpoint = new SwitchEndpoint();
  const connection = Promise.all([import('../shared-runner/page-connection.js'), import('./follow-runner.js')]).then(([{ connectShared }, { followRunner }]) =>
    connectShared(endpoint, make, dedicated, engine, { die, connected: (change) => followRunner(change, followers()) }),
  );
  connection.catch(() => {});
  return {
    endpoint,
    identity: () => connection.then((made) => made.ready),
    close: () => void connection.then((made) => made.close()).catch(() => {}),
  };
}
