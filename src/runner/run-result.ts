export type { RunResult } from '../core/run.js';
