import * as Comlink from 'comlink';
import { createRunnerHost } from './runner-host.js';
import { comlinkEndpoint } from '../wire/session-link.js';
import { registerTransferHandlers } from '../wire/transfer-handlers.js';

/** Serve the runner in this worker: Comlink for its API and the session link for tool calls and events, on one channel. */
export function serveRunner(scope: Worker = self as unknown as Worker): void {
  registerTransferHandlers();
  Comlink.expose(createRunnerHost(scope), comlinkEndpoint(scope));
}
