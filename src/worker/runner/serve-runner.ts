import * as Comlink from 'comlink';
import { createRunnerHost } from './runner-host.js';
import { registerTransferHandlers } from '../wire/transfer-handlers.js';

/** Serve the runner in this worker: its API over Comlink, and through the same channel its calls of the page's tools. */
export function serveRunner(scope: Comlink.Endpoint = self as unknown as Comlink.Endpoint): void {
  registerTransferHandlers();
  Comlink.expose(createRunnerHost(scope), scope);
}
