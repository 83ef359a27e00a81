// The runner worker: the loop, the engine, the parser and the validators live here, off the page.
import * as Comlink from 'comlink';
import { createRunnerHost } from '../src/worker/runner-host.js';
import { registerTransferHandlers } from '../src/worker/transfer-handlers.js';

registerTransferHandlers();
Comlink.expose(createRunnerHost());
