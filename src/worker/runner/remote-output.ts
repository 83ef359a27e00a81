import type { StandardSchemaV1 } from '../../validation/standard-schema.js';
import type { OutputCheck } from '../wire/protocol.js';

/**
 * A run's Standard Schema `output` as the runner worker holds it: the page's schema, reached over
 * Comlink (PageOutput), with the JSON Schema the page converted it to for the model. The typed-answer
 * extension takes it as any Standard Schema: each answer is parsed on the page, once, and a wrong
 * one is asked again; the run's `output` here is the answer's JSON (the page puts the parsed value in).
 */
export function remoteOutput(schema: Record<string, unknown>, page: OutputCheck): StandardSchemaV1 {
  return {
    '~standard': {
      version: 1,
      vendor: 'ambi-web/page',
      validate: async (value) => {
        const { issues } = await page.validate(value);
        return issues ? { issues } : { value };
      },
      jsonSchema: { input: () => schema, output: () => schema },
    },
  };
}
