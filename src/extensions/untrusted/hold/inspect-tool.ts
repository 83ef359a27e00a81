import type { JsonValue, ParametersSchema } from '../../../core/types.js';
import { ToolError } from '../../../errors/tool-error.js';
import { errorMessage } from '../../../errors/error-message.js';
import { DEFAULT_POLICY } from '../../../tools/policy.js';
import type { HeldArguments, Tool } from '../../../tools/types.js';
import { checkSchema } from '../../../validation/check-schema.js';

/** The built-in tool's name. */
export const INSPECT_HELD = 'inspect_held';

/** What `inspect_held` is given: the value (a held one, by reference), what to find out, and the answer's schema. */
export interface InspectArguments {
  value: JsonValue;
  instructions: string;
  output?: Record<string, unknown>;
}

const PARAMETERS: ParametersSchema = {
  type: 'object',
  properties: {
    value: { description: 'The held value to read, as {"$held": "$N"}' },
    instructions: { type: 'string', minLength: 1, description: 'What to find out about the value' },
    output: {
      type: 'object',
      description:
        'A JSON Schema the answer must match. A closed answer (booleans, numbers, enums, objects without other keys, arrays of at most 8 such items) comes back to you; anything else is held, as a new handle.',
    },
  },
  required: ['value', 'instructions'],
  additionalProperties: false,
};

/**
 * `inspect_held`, offered in `untrusted: 'hold'` mode: a separate request reads a held value (the
 * untrusted extension makes it, as quarantine's, once the call has the value). Read-only; its
 * `value` may be held (it runs unasked), but never its instructions or schema: an `enum` of the
 * page's choosing would come back as a closed answer in the page's words.
 */
class InspectHeldTool implements Tool<InspectArguments, JsonValue> {
  readonly name = INSPECT_HELD;
  readonly description =
    'Read a held value without seeing it: a separate reader answers your instructions about it. Give `output` a closed JSON Schema to get the answer back; a free-text answer is held again.';
  readonly parameters = PARAMETERS;
  readonly timeoutMs = DEFAULT_POLICY.timeoutMs;
  readonly maxRetries = 0;
  readonly retryDelayMs = DEFAULT_POLICY.retryDelayMs;
  readonly idempotent = true;
  readonly readOnly = true;
  readonly heldArguments: HeldArguments = { value: 'allow', instructions: 'refuse', output: 'refuse' };

  /** The value itself: the extension reads it, in quarantine, once the call returns. */
  call({ value, output }: InspectArguments): JsonValue {
    if (output !== undefined) {
      try {
        checkSchema(output);
      } catch (error) {
        throw new ToolError(`output is not a JSON Schema the validators take: ${errorMessage(error)}`);
      }
    }
    return value;
  }
}

/** A new `inspect_held` tool (each agent in hold mode registers its own). */
export function inspectHeldTool(): Tool<InspectArguments, JsonValue> {
  return new InspectHeldTool();
}

/** Whether `tool` is the built-in `inspect_held` (not a tool of the app's that took its name in `'mark'` mode). */
export function isInspectHeld(tool: Tool | undefined): boolean {
  return tool instanceof InspectHeldTool;
}
