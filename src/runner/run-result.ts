import type { Usage } from '../core/types.js';
import type { ToolResult } from '../core/types.js';
import type { Message } from '../core/types.js';

/** What a finished run gives back; `Output` is the type of `output` when the run was given an `output` schema. */
export interface RunResult<Output = unknown> {
  runId: string;
  /** The model's final answer (text outside any tool-call tags). */
  text: string;
  /**
   * The conversation after the run, system prompt first: the whole of it, except when a context
   * budget let the run read only the end of a long stored conversation (see `skippedMessages`).
   */
  messages: Message[];
  /** Stored messages before the end the run read, not in `messages` (and never sent); absent when none. */
  skippedMessages?: number;
  /** Model turns taken. */
  iterations: number;
  /** Every call of the run, in call order. */
  toolResults: ToolResult[];
  /** Summed over the run's model turns, when the engine reports usage. */
  usage?: Usage;
  /** The final answer parsed and validated against the run's `output` schema (for a Standard Schema: its parsed value). */
  output?: Output;
}
