// Our runner worker with the stub model (stub-model.ts) answering from inside it: tool-latency-idle's ours.
import { serveRunner } from '../../../src/worker/runner/serve-runner.js';
import { stubModel } from './stub-model.js';

stubModel('ping');
serveRunner();
