// The runner worker: the loop, the engine, the parser and the validators live here, off the page.
import { serveRunner } from '../src/worker/runner/serve-runner.js';

serveRunner();
