import { toolFailure } from '../call/result.js';
import type { ToolCall, ToolResult } from '../core/types.js';

/** Calls of one reply that run: enough for any honest batch, and a reply of thousands of side effects runs none past it. */
export const DEFAULT_MAX_CALLS_PER_REPLY = 16;

/** The result of a call past its reply's limit: never run, and the model is told why. */
export function tooManyCalls(call: Pick<ToolCall, 'id' | 'name'>, calls: number, limit: number): ToolResult {
  const message = `Not run: the reply made ${calls} tool calls and only the first ${limit} run (maxCallsPerReply); make fewer calls at once.`;
  return toolFailure(call, 'too_many_calls', message, 0, 0);
}
