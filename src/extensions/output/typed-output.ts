import { InvalidOutputError } from '../../errors/invalid-output-error.js';
import type { RunExtension } from '../../runner/extension.js';
import { DEFAULT_MAX_OUTPUT_RETRIES } from '../../runner/run-options.js';
import type { RunSetup } from '../../runner/run-setup.js';
import { outputNote } from './answer-check.js';
import { answerFormat } from './answer-format.js';
import { outputInstructions, outputSpec } from './output-spec.js';

/**
 * Answers a program can use (`run(input, { output })`). Each request teaches the schema (and,
 * on a turn that may answer, asks an engine that can hold the model to it to do so); the final
 * answer is parsed and validated. One that does not fit is fed back as a runtime note for
 * another try, up to `maxOutputRetries`; then the run fails with `invalid_output`. Made when
 * the run starts: a schema that is not one refuses the run before it takes a lock or a slot.
 */
export function typedOutputExtension(setup: RunSetup): RunExtension {
  const { agent } = setup;
  const spec = outputSpec(setup.options.output, agent.registry.validation);
  const maxRetries = setup.options.maxOutputRetries ?? DEFAULT_MAX_OUTPUT_RETRIES;
  let answers = 0;
  return {
    name: 'typed-output',
    beforeTurn(request) {
      request.instructions.push(outputInstructions(spec.schema));
      const format = answerFormat(spec.schema, request.engine.toolChoice);
      if (format) request.engine.output = format;
    },
    async answer(text, lastTurn) {
      const checked = await spec.check(text);
      if (checked.ok) return { ok: true, value: checked.value };
      answers++;
      if (answers > maxRetries || lastTurn) throw new InvalidOutputError(checked.problems, text, answers);
      return { ok: false, note: outputNote(checked.problems, agent.maxResultChars) };
    },
  };
}
