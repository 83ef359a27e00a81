import { AmbiError, isAmbiError } from '../../errors/ambi-error.js';
import type { StandardSchemaV1 } from '../../validation/standard-schema.js';
import type { OutputCheck } from '../wire/protocol.js';

/**
 * A run's Standard Schema `output` as the runner worker holds it: the page's schema, reached over
 * Comlink (PageOutput), with the JSON Schema the page converted it to for the model. The typed-answer
 * extension takes it as any Standard Schema: each answer is parsed on the page, once, and a wrong
 * one is asked again; the run's `output` here is the answer's JSON (the page puts the parsed value in).
 * A page that went away cannot be asked (`tab_gone`): that throws, coded, and ends the run.
 */
export function remoteOutput(schema: Record<string, unknown>, page: OutputCheck): StandardSchemaV1 {
  return {
    '~standard': {
      version: 1,
      vendor: 'ambi-web/page',
      validate: async (value) => {
        const { issues } = await page.validate(value).catch((error: unknown) => {
          throw isAmbiError(error, 'tab_gone') ? schemaGone(error) : error;
        });
        return issues ? { issues } : { value };
      },
      jsonSchema: { input: () => schema, output: () => schema },
    },
  };
}

/** The page's `tab_gone`, said of the schema it held: no answer can be checked any more, whatever the model writes. */
function schemaGone(cause: unknown): AmbiError {
  return new AmbiError(
    'tab_gone',
    "The page that held this run's output schema went away (closed, reloaded or navigated) before the answer was checked: the run ends, the model is not asked again",
    { cause },
  );
}
