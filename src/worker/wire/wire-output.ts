import type { JsonValue } from '../../core/types.js';
import { mediaParts } from '../../parts/normalize.js';
import { OutputWithParts, withParts } from '../../parts/with-parts.js';
import { toolOutputJson } from '../../tools/json-output.js';

/**
 * A tool's answer as it crosses to the runner worker: its output as JSON, or, for an output with
 * parts (`withParts`), a Map of the two. A Map because no JSON output is one (`toolOutputJson`
 * refuses them), so it is never taken for an output; its Blobs cross as they are, not copied.
 */
export type WireOutput = JsonValue | ReadonlyMap<'output' | 'parts', unknown>;

/** What a tool returned, in the tool's realm, as it crosses: JSON, or JSON and its parts (checked here, their bytes made Blobs). */
export function toWireOutput(toolName: string, value: unknown): WireOutput {
  if (!OutputWithParts.is(value)) return toolOutputJson(toolName, value);
  return new Map<'output' | 'parts', unknown>([
    ['output', toolOutputJson(toolName, value.output)],
    ['parts', mediaParts(value.parts, Infinity)],
  ]);
}

/** An answer that crossed, as the pipeline's attempt stage reads a tool's return: an output with parts is one again. */
export function fromWireOutput(answer: WireOutput): unknown {
  if (!(answer instanceof Map)) return answer;
  return withParts(answer.get('output'), answer.get('parts') as Parameters<typeof withParts>[1]);
}
