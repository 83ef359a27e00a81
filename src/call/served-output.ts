import type { JsonValue } from '../core/types.js';
import { OutputWithParts } from '../parts/with-parts.js';
import { CheckedJson } from './checked-json.js';
import { isPlainJson } from './plain-json.js';

/**
 * A served tool's answer as it crosses back to the realm whose pipeline called it (see serve.ts):
 * its output as JSON, or, for an output with parts (`withParts`), a Map of the two. A Map because
 * no JSON output is one (`toolOutputJson` refuses them), so it is never taken for an output; its
 * Blobs cross as they are, not copied.
 */
export type ServedOutput = JsonValue | ReadonlyMap<'output' | 'parts', unknown>;

/**
 * What a tool returned, in the tool's realm, as it crosses: JSON, or JSON and its parts (checked
 * here, their bytes made Blobs). An output already JSON (plain data, or a tab tool's, served on to
 * the runner worker from an extension page) is taken as it is; the conversion of any other, and
 * the checks of parts, load with the first output that needs them, so a page whose tools return
 * plain data never carries them.
 */
export function toServedOutput(toolName: string, value: unknown): ServedOutput | Promise<ServedOutput> {
  if (!OutputWithParts.is(value)) return servedJson(toolName, value);
  return Promise.all([servedJson(toolName, value.output), import('../parts/normalize.js')]).then(
    ([output, { mediaParts }]) =>
      new Map<'output' | 'parts', unknown>([
        ['output', output],
        ['parts', mediaParts(value.parts, Infinity)],
      ]),
  );
}

/** An output as JSON: as it is where it is already (cloned once, by postMessage, not copied here first), else converted (one JSON cannot hold: `crashed`). */
function servedJson(toolName: string, value: unknown): JsonValue | Promise<JsonValue> {
  if (isPlainJson(value)) return value as JsonValue;
  if (CheckedJson.is(value)) return value.value;
  return import('../tools/json-output.js').then(({ toolOutputJson }) => toolOutputJson(toolName, value));
}
