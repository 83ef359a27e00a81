// `run_code` as the model and the registry know it: its name and its parameters (imports nothing).

/** The name of the one tool a model is offered in Code Mode. */
export const RUN_CODE_TOOL = 'run_code';

/** `run_code`'s arguments: the program's source. */
export const RUN_CODE_PARAMETERS = {
  type: 'object',
  properties: {
    code: { type: 'string', description: 'The body of an async JavaScript function: use await and return at its top level.' },
  },
  required: ['code'],
  additionalProperties: false,
} as const;
