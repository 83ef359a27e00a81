/**
 * A JSON value's text as `JSON.stringify` writes it, built only up to `maxChars` (what the model
 * reads of a tool's result), with the length of the whole text counted without building it: a
 * 1 MB output costs one walk, not a 1 MB string cut to 20,000 characters. `value` is JSON already
 * (a tool's output after outputJson): no toJSON, no cycles; undefined is dropped as stringify drops it.
 */
export function cappedJson(value: unknown, maxChars: number): { text: string; length: number } {
  const writer: Writer = { pieces: [], written: 0, length: 0, maxChars };
  write(writer, value);
  const text = writer.pieces.join('');
  return { text: text.length > maxChars ? text.slice(0, maxChars) : text, length: writer.length };
}

interface Writer {
  /** The text so far, while it is shorter than `maxChars`. */
  pieces: string[];
  written: number;
  /** The whole text's length, counted to the end. */
  length: number;
  maxChars: number;
}

/** Characters JSON.stringify escapes in a string: a string without them is its own text, quoted. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what JSON escapes
const ESCAPED = /["\\\u0000-\u001f\ud800-\udfff]/;

function put(writer: Writer, piece: string): void {
  writer.length += piece.length;
  if (writer.written >= writer.maxChars) return;
  writer.pieces.push(piece);
  writer.written += piece.length;
}

/** A string's JSON text; past the cap, only its length is counted (computed only where it has escapes). */
function putString(writer: Writer, text: string): void {
  if (writer.written >= writer.maxChars && !ESCAPED.test(text)) {
    writer.length += text.length + 2;
    return;
  }
  put(writer, ESCAPED.test(text) ? JSON.stringify(text) : `"${text}"`);
}

function write(writer: Writer, value: unknown): void {
  switch (typeof value) {
    case 'string':
      return putString(writer, value);
    case 'number':
      return put(writer, Number.isFinite(value) ? String(value) : 'null');
    case 'boolean':
      return put(writer, value ? 'true' : 'false');
    case 'object':
      if (value === null) return put(writer, 'null');
      return Array.isArray(value) ? writeArray(writer, value) : writeObject(writer, value as Record<string, unknown>);
    default:
      return put(writer, 'null'); // undefined, a function: inside an array, as stringify writes them
  }
}

function writeArray(writer: Writer, items: readonly unknown[]): void {
  put(writer, '[');
  for (let i = 0; i < items.length; i++) {
    if (i > 0) put(writer, ',');
    write(writer, items[i]);
  }
  put(writer, ']');
}

function writeObject(writer: Writer, fields: Record<string, unknown>): void {
  put(writer, '{');
  let first = true;
  for (const key of Object.keys(fields)) {
    const item = fields[key];
    if (item === undefined || typeof item === 'function' || typeof item === 'symbol') continue;
    if (!first) put(writer, ',');
    first = false;
    putString(writer, key);
    put(writer, ':');
    write(writer, item);
  }
  put(writer, '}');
}
