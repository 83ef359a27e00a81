// The AI SDK app's worker (bench/bundle/theirs/agent.worker.ts, as built there) with the stub model
// (stub-model.ts) answering from inside it: tool-latency-idle's baseline. The app's module exposes
// its API as it loads; the stub is in place before the page's first question reaches it.
import { api } from '../../bundle/theirs/agent.worker.js';
import { stubModel } from './stub-model.js';

stubModel('read_title');
// Named, so the app's module is bundled: the package's `sideEffects: false` drops a bare import.
if (typeof api.ask !== 'function') throw new Error('the AI SDK app worker exposes no ask()');
