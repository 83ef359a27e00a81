// Wire types where one tab leads the origin's runner (no SharedWorker): what crosses on the
// origin's BroadcastChannel, and what the leading tab orders the dedicated worker it starts.
import type { RunnerConfig, WireResumeOptions } from '../wire/protocol.js';

/**
 * A run the leading tab's runner would hand on if that tab closed: another tab's runner resumes
 * it from its stored conversation (`database`) under the same id.
 */
export interface ResumableRun {
  runId: string;
  conversation: string;
  /** The configuration of the runner it ran on (without the page's identity). */
  config: RunnerConfig;
  options: WireResumeOptions;
}

/**
 * What crosses on the origin's BroadcastChannel where one tab leads (no SharedWorker): a page's
 * Comlink messages to the leading runner and back, who leads, and the runs it would hand on.
 */
export type ChannelMessage =
  | { kind: 'to-lead'; from: string; data: unknown }
  | { kind: 'to-page'; to: string; data: unknown }
  | { kind: 'lead'; leadId: string }
  | { kind: 'runs'; leadId: string; runs: ResumableRun[] }
  | { kind: 'who' };

/** What a leading tab posts to the dedicated runner worker it starts (with its own MessagePort): lead the origin. */
export interface LeadOrder {
  'ambi-web:lead': { channel: string; leadId: string; adopt: ResumableRun[] };
}
