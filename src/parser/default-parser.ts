import type { CallTags, ToolDefinition } from '../core/types.js';
import { AmbiError } from '../errors/ambi-error.js';
import { loadOnce } from '../util/load-once.js';
import { DEFAULT_CALL_TAGS } from './call-tags.js';
import type { TagToolCallParser } from './tag-parser.js';
import type { ParsePart, ParseResult, ToolCallParser, ToolCallStream } from './types.js';

const parserCode = loadOnce(() => import('./tag-parser.js'));

/**
 * An agent's default parser: `TagToolCallParser` with the `[TOOL_CALL]` tags, whose code loads
 * when a reply first holds a `[` (the only character a call can start with) or the tags must be
 * taught. A reply of plain text, or an engine with native calls, never loads it. Used directly,
 * before a run loaded it, `parse` and `instructions` throw `parser_not_loaded`; await `ready()`
 * or pass `parser: new TagToolCallParser()` to the agent.
 */
export class DefaultTagParser implements ToolCallParser {
  readonly callTags: CallTags = DEFAULT_CALL_TAGS;
  #parser: TagToolCallParser | undefined;

  ready(text?: string): Promise<unknown> | undefined {
    if (this.#parser || (text !== undefined && !text.includes(FIRST))) return undefined;
    return parserCode().then(({ TagToolCallParser }) => (this.#parser ??= new TagToolCallParser()));
  }

  parse(text: string): ParseResult {
    if (!text.includes(FIRST) && !this.#parser) return { text, calls: [], errors: [] };
    return this.#loaded().parse(text);
  }

  stream(): ToolCallStream {
    let inner: ToolCallStream | undefined;
    return {
      push: (chunk) => {
        // Text without the tag's first character holds no call nor the start of one: nothing is held back.
        if (!inner && !chunk.includes(FIRST)) return chunk === '' ? NONE : [{ type: 'text', text: chunk }];
        inner ??= this.#loaded().stream();
        return inner.push(chunk);
      },
      end: () => inner?.end() ?? NONE,
    };
  }

  instructions(definitions: readonly ToolDefinition[]): string {
    return this.#loaded().instructions(definitions);
  }

  #loaded(): TagToolCallParser {
    if (this.#parser) return this.#parser;
    throw new AmbiError(
      'parser_not_loaded',
      'The default tag parser loads its code on first need: await `agent.parser.ready?.()` first, or give the agent `parser: new TagToolCallParser()`',
    );
  }
}

const FIRST = DEFAULT_CALL_TAGS.open[0]!;
const NONE: readonly ParsePart[] = Object.freeze([]);
