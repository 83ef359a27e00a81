import type { JsonValue } from '../core/types.js';
import { type OutputWithParts, withParts } from '../parts/with-parts.js';
import { CheckedJson } from './checked-json.js';
import type { ServedOutput } from './served-output.js';

// The caller's side of a served call (see served-output.ts for the tool's): apart, so the realm whose
// pipeline called (the runner worker) does not import the served side's on-demand conversion.

/**
 * An answer that crossed, as the attempt stage reads a tool's return: JSON already (CheckedJson:
 * never converted a second time), with its parts beside it where it had some.
 */
export function fromServedOutput(answer: ServedOutput): CheckedJson | OutputWithParts<CheckedJson> {
  if (!(answer instanceof Map)) return new CheckedJson(answer as JsonValue);
  return withParts(new CheckedJson(answer.get('output') as JsonValue), answer.get('parts') as Parameters<typeof withParts>[1]);
}
