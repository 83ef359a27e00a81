import type { ToolDefinition } from '../core/types.js';
import { checkTags, DEFAULT_CALL_TAGS } from './call-tags.js';
import { collectParts } from './collect.js';
import { tagInstructions } from './instructions.js';
import { formatMessages, type FormatMessages } from './messages.js';
import { TagToolCallStream } from './stream.js';
import { Tag } from './tag.js';
import type { ParseResult, ToolCallParser } from './types.js';
import type { CallTags } from '../core/types.js';

/** The tags that delimit a call; both default to the `[TOOL_CALL]` pair. */
export type TagParserOptions = Partial<CallTags>;

/**
 * Reads calls written as `[TOOL_CALL]{"name": ..., "args": {...}}[/TOOL_CALL]` (or other
 * tags) in model text; `arguments` or `parameters` (Llama 3) may stand for `args`, and a
 * payload with other keys but none of those is a format error. Batch parsing is the stream
 * fed once, so both agree exactly.
 */
export class TagToolCallParser implements ToolCallParser {
  readonly open: string;
  readonly close: string;
  /** The same tags as one value: a local engine's grammar writes calls between them. */
  readonly callTags: CallTags;
  private readonly openTag: Tag;
  private readonly closeTag: Tag;
  private readonly messages: FormatMessages;
  /**
   * The instructions for each frozen list of tools taught, kept while the list lives: a registry
   * hands out the same frozen list until its tools change, and a prompt for 1,000 tools takes
   * milliseconds to write. A list that is not frozen may change, so it is written each time.
   */
  readonly #taught = new WeakMap<readonly ToolDefinition[], string>();

  /** A parser for the given tags (default `[TOOL_CALL]` / `[/TOOL_CALL]`); throws InvalidTagsError for unusable tags. */
  constructor(options: TagParserOptions = {}) {
    const { open = DEFAULT_CALL_TAGS.open, close = DEFAULT_CALL_TAGS.close } = options;
    checkTags(open, close);
    this.open = open;
    this.close = close;
    this.callTags = Object.freeze({ open, close });
    this.openTag = new Tag(open);
    this.closeTag = new Tag(close);
    this.messages = formatMessages({ open, close });
  }

  /** A parser for the Hermes format: `<tool_call>` / `</tool_call>`. */
  static hermes(): TagToolCallParser {
    return new TagToolCallParser({ open: '<tool_call>', close: '</tool_call>' });
  }

  /** Parse a complete reply into its text outside tags, its calls and its format errors. */
  parse(text: string): ParseResult {
    const stream = this.stream();
    // Both batches as they are, in turn: end() leaves what push() returned untouched.
    return collectParts(stream.push(text), stream.end());
  }

  /** Start an incremental parse of a reply that arrives in chunks. */
  stream(): TagToolCallStream {
    return new TagToolCallStream(this.openTag, this.closeTag, this.messages);
  }

  /** System-prompt text that teaches this parser's tags and the given tools (written once per list of tools). */
  instructions(definitions: readonly ToolDefinition[]): string {
    if (!Object.isFrozen(definitions)) return tagInstructions(definitions, this.callTags);
    let text = this.#taught.get(definitions);
    if (text === undefined) {
      text = tagInstructions(definitions, this.callTags);
      this.#taught.set(definitions, text);
    }
    return text;
  }
}
