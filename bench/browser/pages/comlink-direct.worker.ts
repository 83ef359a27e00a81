// The plain Comlink reference's worker (comlink-direct.ts).
import { serveComlinkDirect } from './comlink-direct.js';

serveComlinkDirect();
