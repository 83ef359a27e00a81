import type { JsonValue } from '../core/types.js';
import { toolOutputJson } from '../tools/json-output.js';
import { CheckedJson } from './checked-json.js';

/**
 * A tool's output as the model reads it: as it is where already JSON, else made JSON (one JSON
 * cannot hold: `crashed`). Apart from CheckedJson, so that a realm that only takes checked JSON
 * (a page serving its tools, see served-output.ts) does not carry the conversion.
 */
export function outputJson(toolName: string, output: unknown): JsonValue {
  return CheckedJson.is(output) ? output.value : toolOutputJson(toolName, output);
}
