import type { CallRun } from '../call/types.js';
import type { ToolChoice } from '../core/types.js';
import type { ExtensionSet } from './extension-set.js';
import type { RunSetup } from './run-setup.js';
import type { RunState } from './run-view.js';
import type { RunShared } from './turn-scope.js';
import type { UsageMeter } from './usage-meter.js';

/** Everything one run's loop works with. */
export interface LoopContext {
  setup: RunSetup;
  extensions: ExtensionSet;
  /** The run's side of each call (see CallRun): policy hooks, slots, journal, events. */
  call: CallRun;
  shared: RunShared;
  /** What the run has done so far (RunSetup.view), kept here. */
  state: RunState;
  /** This run's own tokens, its leaves' included (`RunResult.usage`); `shared.usage` holds the budget. */
  usage: UsageMeter;
  maxIterations: number;
  toolChoice?: ToolChoice;
  /** The run's own concurrency limit, for the scopes its calls see (a leaf runs under it). */
  concurrency: number;
}
