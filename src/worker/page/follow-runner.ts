import type * as Comlink from 'comlink';
import { AmbiError } from '../../errors/ambi-error.js';
import type { SharedRunnerApi } from '../shared-runner/client-api.js';
import type { Inflight } from '../wire/worker-life.js';
import type { PageHost } from './page-host.js';
import type { PageRuns } from './page-runs.js';
import type { RunnerSetup } from './runner-setup.js';

// A shared runner's page follows the origin's runner when it changes; loaded with the shared runner's connection (see runner-link.ts).

/** A shared runner's page talks to another runner (`again`: the tab that led closed), or leads itself (`lead`). */
export interface RunnerChange {
  lead: boolean;
  again: boolean;
}

/** What of a WorkerRunner follows its runner when that changes. */
export interface Followers {
  inflight: Inflight;
  host: PageHost;
  setup: RunnerSetup;
  runs: PageRuns;
  api: Comlink.Remote<SharedRunnerApi>;
  guard<T>(call: Promise<T>): Promise<T>;
}

/**
 * The page's runner changed: what was asked of the last one and not answered ends with
 * `leader_gone`; the new one is configured and given this page's tools, the runs the last one
 * handed on are resumed (by the leading page), and each run this page follows is attached again.
 */
export function followRunner({ lead, again }: RunnerChange, { inflight, host, setup, runs, api, guard }: Followers): void {
  if (again) {
    const error = new AmbiError('leader_gone', 'The tab that led the shared runner closed before it answered');
    inflight.interrupt(error);
    host.abortAll(error);
    setup.reset();
  }
  const synced = setup.sync();
  const resumed = lead ? synced.then(() => guard(api.resumeAdopted())) : synced;
  if (again) void resumed.then(() => runs.reattach((runId) => guard(api.attach(runId)))).catch(() => {});
  else resumed.catch(() => {});
}
