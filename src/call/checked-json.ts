import type { JsonValue } from '../core/types.js';

/**
 * An output already JSON when it reaches the pipeline (a page's or a tool worker's tool, served
 * across the worker boundary: see serve.ts; a tab's, read from its wire): the
 * attempt stage takes its value as it is, so an output is made JSON once, where the tool ran. Only
 * the SDK's remote tools wrap one; a private field means no plain object a tool returns passes for one.
 */
export class CheckedJson {
  readonly #checked = true;

  constructor(readonly value: JsonValue) {}

  /** Whether `output` is one. */
  static is(output: unknown): output is CheckedJson {
    return typeof output === 'object' && output !== null && #checked in output;
  }
}
