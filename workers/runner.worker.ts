// ambi-web's runner worker: the loop, the engines, the parser and the validators, off the page.
// An app's own runner worker is this file with its engine kinds and extensions added (docs/engines.md).
import { builtInEngines } from '../src/engines/engine-table.js';
import { standardExtensions } from '../src/agent/features.js';
import { serveRunner } from '../src/worker/runner/serve-runner.js';

serveRunner({ engines: builtInEngines, extensions: standardExtensions });
