import type { ToolCall, ToolDefinition, CallTags, ParseError } from '../core/types.js';

export type { ParseError } from '../core/types.js';

/** Everything a reply holds: the text outside tags, the calls, and one error per unusable snippet. */
export interface ParseResult {
  text: string;
  calls: ToolCall[];
  errors: ParseError[];
}

/** One piece of a streamed reply, in reply order. */
export type ParsePart = { type: 'text'; text: string } | { type: 'call'; call: ToolCall } | { type: 'error'; error: ParseError };

/** An incremental parser for one reply: feed chunks as they arrive, then end it once. */
export interface ToolCallStream {
  /** Parts that are certain after this chunk (text is held back only while it may begin a tag). Read-only: it may be shared. */
  push(chunk: string): readonly ParsePart[];
  /** The parts left once the reply is complete (held-back text, an unclosed block). */
  end(): readonly ParsePart[];
}

/** A way of writing tool calls in model text: the extension point for other formats. */
export interface ToolCallParser {
  /**
   * The tags this format writes a call between, if it is tagged text. The runner sends them with
   * each request, so an engine that constrains its output (a local model's grammar) writes calls
   * this parser reads. A parser without them leaves such an engine on `[TOOL_CALL]` / `[/TOOL_CALL]`.
   */
  readonly callTags?: CallTags;
  /** Parse a complete reply. */
  parse(text: string): ParseResult;
  /** Start parsing a reply that arrives in chunks. */
  stream(): ToolCallStream;
  /** System-prompt text that teaches the model this format and the given tools. */
  instructions(definitions: readonly ToolDefinition[]): string;
}
