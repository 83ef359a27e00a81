import type { ToolResult } from '../../../core/types.js';
import type { MediaPart } from '../../../core/parts.js';
import { decodeArguments } from '../../../call/decode.js';
import type { RunCall } from '../../../call/types.js';
import { type QuarantineHost, quarantined } from '../quarantine.js';
import type { InspectArguments } from './inspect-tool.js';

/** The answer's schema when the model gives none: free text, which is held. */
const FREE_TEXT = { type: 'string' };

/**
 * An `inspect_held` call's result: its value (the tool's output) read in quarantine, with the
 * call's instructions and `output` schema. A closed answer is the output, unmarked; anything else
 * comes back marked, for the hold step to hold. A failure of the tool itself (a schema it could
 * not take) is in the runtime's words, and stays as it is.
 */
export function inspected(call: RunCall, result: ToolResult, host: QuarantineHost, parts: readonly MediaPart[] = []): Promise<ToolResult> | ToolResult {
  if (!result.ok) return result;
  const decoded = decodeArguments(call.name, call.arguments);
  // The arguments were valid, or the tool would not have run: instructions and schema are the model's.
  const { instructions, output } = (decoded.ok ? decoded.value : {}) as Partial<InspectArguments>;
  // The held value's images and files are read too, where the engine can see them.
  return quarantined(result, { output: output ?? FREE_TEXT, ...(typeof instructions === 'string' ? { instructions } : {}) }, host, parts);
}
