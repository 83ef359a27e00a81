import { cappedJson } from './capped-json.js';
import type { JsonValue, ToolCall, ToolErrorCode, ToolFailure, ToolMessage, ToolResult, ToolSuccess } from '../core/types.js';

/** A duration as results carry it: milliseconds to a tenth (timers give float noise such as 86.59999999962747). */
export function roundedMs(ms: number): number {
  return Math.round(ms * 10) / 10;
}

/** The failed result of `call`: what the model reads back as `{ ok: false, error: { code, message } }`. */
export function toolFailure(call: Pick<ToolCall, 'id' | 'name'>, code: ToolErrorCode, message: string, attempts: number, durationMs: number): ToolFailure {
  return { id: call.id, name: call.name, ok: false, error: { code, message }, attempts, durationMs: roundedMs(durationMs) };
}

/** The successful result of `call`. */
export function toolSuccess(call: Pick<ToolCall, 'id' | 'name'>, output: JsonValue, attempts: number, durationMs: number): ToolSuccess {
  return { id: call.id, name: call.name, ok: true, output, attempts, durationMs: roundedMs(durationMs) };
}

/**
 * The message that carries a result back to the model: `{ok, output}` or `{ok, error}` as JSON,
 * cut at `maxChars`. A result marked `untrusted` (words from someone other than the person)
 * gives a message marked so; engines never send the mark to a server.
 */
export function toolMessage(result: ToolResult, maxChars: number): ToolMessage {
  if (result.held) return heldMessage(result);
  const body: Record<string, unknown> = result.ok ? { ok: true, output: result.output } : { ok: false, error: result.error };
  if (result.editedArguments !== undefined) {
    // The model must know the call it asked for is not the one that ran.
    body.note = 'The user edited the arguments of this call before approving it; it ran with editedArguments, not the ones you gave.';
    body.editedArguments = result.editedArguments;
  }
  // Cut before it is written: a large output is never made one long string only to be cut.
  const { text, length } = cappedJson(body, maxChars);
  const message: ToolMessage = {
    role: 'tool',
    toolCallId: result.id,
    name: result.name,
    content: length <= maxChars ? text : cutMarked(text, maxChars, length),
  };
  if (result.ok && result.parts) message.parts = result.parts;
  if (result.untrusted) message.untrusted = true;
  return message;
}

/**
 * The message of a result whose output (or error message) is held: the handle itself, or the
 * failure's code with the handle for its message. It holds none of the held words: unmarked.
 */
function heldMessage(result: ToolResult): ToolMessage {
  const handle = result.held!;
  const content = result.ok ? JSON.stringify(handle) : JSON.stringify({ ok: false, error: { code: result.error.code, message: handle } });
  return { role: 'tool', toolCallId: result.id, name: result.name, content };
}

/** Cut text longer than `maxChars`, with a marker the model can see and act on. */
export function capText(text: string, maxChars: number): string {
  return text.length <= maxChars ? text : cutMarked(text.slice(0, maxChars), maxChars, text.length);
}

/** The first `maxChars` of a text of `length` characters, and the marker. */
function cutMarked(head: string, maxChars: number, length: number): string {
  return `${head}\n[truncated by ambi-web: ${maxChars} of ${length} characters shown; ask for less]`;
}
