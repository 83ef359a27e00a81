import { InvalidOutputError } from '../../errors/invalid-output-error.js';
import type { RunExtension } from '../../runner/extension.js';
import { DEFAULT_MAX_OUTPUT_RETRIES } from '../../runner/run-options.js';
import type { RunSetup } from '../../runner/run-setup.js';
import { type OutputCheck, outputNote } from './answer-check.js';
import { answerFormat } from './answer-format.js';
import { outputInstructions, outputSpec } from './output-spec.js';

/**
 * Answers a program can use (`run(input, { output })`). Each request teaches the schema (and,
 * on a turn that may answer, asks an engine that can hold the model to it to do so: `beforeTurn`);
 * the final answer is parsed and validated (`afterTurn`), and its value is the result's `output`
 * (`result`). One that does not fit is fed back as a runtime note for another try, up to
 * `maxOutputRetries`; then the run fails with `invalid_output`. An answer that cannot be checked
 * at all (the check rejects, coded: `tab_gone` when the page holding the schema went away) ends
 * the run with that error, without asking again. Made when the run starts: a
 * schema that is not one refuses the run before it takes a lock or a slot. A Standard Schema is
 * parsed where it lives, once per answer (a WorkerRunner's: on the page, see `output` in the worker).
 */
export function typedOutputExtension(setup: RunSetup): RunExtension {
  const { agent } = setup;
  const spec = outputSpec(setup.options.output, agent.registry.validation);
  const maxRetries = setup.options.maxOutputRetries ?? DEFAULT_MAX_OUTPUT_RETRIES;
  let answers = 0;
  /** The checked value of the answer the run ends with. */
  let output: { value: unknown } | undefined;
  return {
    name: 'typed-output',
    beforeTurn(request) {
      request.instructions.push(outputInstructions(spec.schema));
      const format = answerFormat(spec.schema, request.engine.toolChoice);
      if (format) request.engine.output = format;
    },
    async afterTurn(turn) {
      if (turn.calls.length > 0 || turn.notes.length > 0) return;
      let checked: OutputCheck;
      try {
        checked = await spec.check(turn.text);
      } catch (error) {
        // The answer could not be checked at all (its schema's page went away: `tab_gone`): the
        // run ends with that error, the answer kept, and no request is spent on another answer.
        turn.failure = error;
        return;
      }
      if (checked.ok) {
        output = { value: checked.value };
        return;
      }
      answers++;
      if (answers > maxRetries || turn.lastTurn) turn.failure = new InvalidOutputError(checked.problems, turn.text, answers);
      else {
        turn.notes.push(outputNote(checked.problems, agent.maxResultChars));
        turn.again = true;
      }
    },
    result: (result) => (output ? { ...result, output: output.value } : result),
  };
}
