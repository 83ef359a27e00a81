import type { SnapshotStore } from '../store/types.js';

/** How an agent delegates to leaves (`agent.leaf(...)`). */
export interface LeafOptions {
  /** Where leaf snapshots are written before a leaf starts and updated when it ends. */
  store: SnapshotStore;
  /** The parent's tools a leaf may use (default: all but spawn_leaf). */
  tools?: readonly string[];
  /** Levels of delegation, a whole number >= 1 (else `invalid_option`): 1 (default) means a leaf cannot delegate further. */
  maxDepth?: number;
  /** The whole leaf run's time limit (default 120 000 ms: a leaf makes several model turns). */
  timeoutMs?: number;
  /** Model turns a leaf may take (default 10). */
  maxIterations?: number;
}

export const SPAWN_LEAF = 'spawn_leaf';
export const DEFAULT_LEAF_TIMEOUT_MS = 120_000;
