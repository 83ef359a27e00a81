/**
 * Error messages for the model. Each says what is wrong, then shows the expected
 * format, because the model reads it in the next turn and has to fix its own output.
 */
import type { CallTags } from '../core/types.js';

/** One line showing the expected format with these tags. */
export function expectedFormat(tags: CallTags): string {
  return `Expected format: ${tags.open}{"name": "tool_name", "args": {"key": "value"}}${tags.close}`;
}

const kindOf = (value: unknown): string =>
  value === null ? 'null' : Array.isArray(value) ? 'a list' : typeof value === 'object' ? 'an object' : `a ${typeof value}`;

/** How many stray keys a message names (a hostile payload may hold thousands). */
const MAX_KEYS_NAMED = 5;
/** Longest piece of the model's own JSON quoted in a message: the block itself is in `raw`. */
const MAX_QUOTE = 60;

/**
 * `value` as JSON, cut to MAX_QUOTE characters. Never throws: a value nested too deep for
 * JSON.stringify (JSON.parse reads any depth, stringify recurses) is described by its kind.
 */
const quote = (value: unknown): string => {
  let json: string;
  try {
    json = JSON.stringify(value) ?? String(value);
  } catch {
    return kindOf(value);
  }
  return json.length > MAX_QUOTE ? `${json.slice(0, MAX_QUOTE)}…` : json;
};

/** `"a"`, `"a" and "b"`, `"a", "b" and "c"`: keys as the model wrote them, quoted. */
const keyList = (keys: readonly string[]): string => {
  const quoted = keys.map(quote);
  return quoted.length < 2 ? quoted.join('') : `${quoted.slice(0, -1).join(', ')} and ${quoted.at(-1)}`;
};

/** Messages for each way a block can fail, given the parser's tags. */
export function formatMessages(tags: CallTags) {
  const format = expectedFormat(tags);
  // Written once per parser: a hostile reply of thousands of empty blocks shares one string.
  const empty = `The tool call block is empty: put one JSON object inside the tags. ${format}`;
  const emptyList = `The tool call block holds an empty list: put at least one call in it, or leave the block out. ${format}`;
  const unclosed = `The tool call block is never closed: end it with ${tags.close}. ${format}`;
  return {
    empty: () => empty,
    invalidJson: (detail: string, stringLeftOpen: boolean) =>
      `The tool call is not valid JSON (${detail}).` +
      (stringLeftOpen ? ` A string seems to be left open: check for a missing closing quote or an unescaped " inside a string.` : '') +
      ` Put exactly one JSON object (or a JSON array of them) between the tags and nothing else. ${format}`,
    notAnObject: (value: unknown) => `A tool call must be a JSON object with "name" and "args", but this is ${kindOf(value)}. ${format}`,
    emptyList: () => emptyList,
    badName: (name: unknown) =>
      name === undefined
        ? `The tool call has no "name": give the tool's name as a non-empty string. ${format}`
        : `The tool call's "name" must be a non-empty string, but it is ${quote(name)}. ${format}`,
    manyArgs: (keys: readonly string[]) =>
      `The tool call has ${keys.length === 2 ? 'both ' : ''}${keyList(keys)}: give the arguments once, under "args". ${format}`,
    misplacedArgs: (keys: readonly string[]) =>
      `The tool call has ${keyList(keys.slice(0, MAX_KEYS_NAMED))}${keys.length > MAX_KEYS_NAMED ? ' and more keys' : ''} beside "name" but no "args": put the tool's arguments in one "args" object. ${format}`,
    unclosed: () => unclosed,
    inList: (index: number, message: string) => `Item ${index + 1} of the list: ${message[0]!.toLowerCase()}${message.slice(1)}`,
  };
}

/** The message builders for one set of tags. */
export type FormatMessages = ReturnType<typeof formatMessages>;
