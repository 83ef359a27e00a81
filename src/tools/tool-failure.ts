import type { ToolCall, ToolErrorCode, ToolFailure } from '../core/types.js';

/** The failed result of `call`: what the model reads back as `{ ok: false, error: { code, message } }`. */
export function toolFailure(call: Pick<ToolCall, 'id' | 'name'>, code: ToolErrorCode, message: string, attempts: number, durationMs: number): ToolFailure {
  return { id: call.id, name: call.name, ok: false, error: { code, message }, attempts, durationMs };
}
