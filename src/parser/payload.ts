import { newCallId } from '../util/ids.js';
import type { FormatMessages } from './messages.js';
import { parseJsonOr } from './parse-json.js';
import type { ParsePart } from './types.js';
import { errorMessage } from '../errors/error-message.js';

type CallOrError = Extract<ParsePart, { type: 'call' | 'error' }>;

const error = (message: string, raw: string): CallOrError => ({
  type: 'error',
  error: { code: 'malformed_tool_call', message, raw },
});

/** How a block was delimited: by a close tag outside strings, or by the end-of-input fallback. */
export interface BlockSource {
  /** The whole block as written, tags included (the `raw` of a block-level error). */
  raw: string;
  /** True when the block was cut at the first literal close tag because a string never closed. */
  fallback: boolean;
}

/** Turn the text between two tags into calls and errors, in the order they were written. */
export function readBlock(payload: string, source: BlockSource, messages: FormatMessages): CallOrError[] {
  const json = unfence(trimmed(payload));
  if (json === '') return [error(messages.empty(), source.raw)];
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (cause) {
    const detail = errorMessage(cause);
    return [error(messages.invalidJson(detail, source.fallback), source.raw)];
  }
  if (!Array.isArray(value)) {
    const part = readCall(value, messages);
    return [typeof part === 'string' ? error(part, source.raw) : part];
  }
  if (value.length === 0) return [error(messages.emptyList(), source.raw)];
  return value.map((item: unknown, index) => {
    const part = readCall(item, messages);
    // An item's own JSON is its raw snippet: the model sees which element was wrong.
    return typeof part === 'string' ? error(messages.inList(index, part), itemSnippet(item, source)) : part;
  });
}

/**
 * Keys that carry a call's arguments: ours, OpenAI's name for them, and Llama 3's JSON tool-call
 * format (which vLLM's parsers also accept).
 */
const ARGUMENT_KEYS = ['args', 'arguments', 'parameters'] as const;

/** One `{"name", "args"}` object as a call, or the message saying why it is not one. */
function readCall(item: unknown, messages: FormatMessages): CallOrError | string {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) return messages.notAnObject(item);
  const fields = item as Record<string, unknown>;
  const name = fields.name;
  if (typeof name !== 'string' || name.trim() === '') return messages.badName(name);
  // A loop rather than filter: no array per call on the parser's hot path.
  let carrier: string | undefined;
  for (const key of ARGUMENT_KEYS) {
    if (!Object.hasOwn(fields, key)) continue;
    // Taking one and ignoring another would drop the model's data silently.
    if (carrier !== undefined) return messages.manyArgs(ARGUMENT_KEYS.filter((k) => Object.hasOwn(fields, k)));
    carrier = key;
  }
  // Keys beside the name are arguments put in the wrong place (or under a name we do not
  // read): a call with {} would run without them. Only a bare name means "no arguments".
  if (carrier === undefined && hasKeyBesideName(fields)) return messages.misplacedArgs(Object.keys(fields).filter((key) => key !== 'name'));
  const args = carrier === undefined ? {} : fields[carrier];
  return { type: 'call', call: { id: newCallId(), name, arguments: decodeDoubleEncoded(args) } };
}

function hasKeyBesideName(fields: Record<string, unknown>): boolean {
  // for…in with an own-key check: stops at the first key, and a polluted prototype adds none.
  for (const key in fields) if (key !== 'name' && Object.hasOwn(fields, key)) return true;
  return false;
}

/**
 * A list item as JSON; one nested too deep for JSON.stringify (JSON.parse reads any depth)
 * is shown as the block it came from, which is shared, not copied, however many such items.
 */
function itemSnippet(item: unknown, source: BlockSource): string {
  try {
    return JSON.stringify(item);
  } catch {
    return source.raw;
  }
}

/** Some models send arguments as a JSON string; decode it, or keep the raw string for a later stage to report. */
function decodeDoubleEncoded(args: unknown): unknown {
  return typeof args === 'string' ? parseJsonOr(args, args) : args;
}

/** `text.trim()`, which copies the string even when there is nothing to trim; JSON mostly starts and ends with a visible ASCII character. */
function trimmed(text: string): string {
  const visible = (code: number) => code > 0x20 && code < 0x7f;
  return visible(text.charCodeAt(0)) && visible(text.charCodeAt(text.length - 1)) ? text : text.trim();
}

/** The body of a Markdown code fence (```json ... ``` or ``` ... ```) that spans the whole payload. */
function unfence(payload: string): string {
  if (payload.length < 6 || !payload.startsWith('```') || !payload.endsWith('```')) return payload;
  // Drop an info string such as `json` when a line break, space or the JSON itself follows it.
  const body = payload.slice(3, -3);
  const info = /^[A-Za-z][\w+-]*(?=[\s[{]|$)/.exec(body);
  return (info ? body.slice(info[0].length) : body).trim();
}
