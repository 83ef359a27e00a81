/**
 * An output that holds words from someone other than the person, from a tool that is not always
 * untrusted: a leaf that read untrusted content answers with one. The attempt stage unwraps it
 * and marks the call's result (attempt.ts). It can only add a mark, never take one off.
 */
export class UntrustedOutput {
  readonly #marked = true;

  constructor(readonly value: unknown) {}

  /** Whether `output` is one (a private field, so no plain object a tool returns passes for one). */
  static is(output: unknown): output is UntrustedOutput {
    return typeof output === 'object' && output !== null && #marked in output;
  }
}
