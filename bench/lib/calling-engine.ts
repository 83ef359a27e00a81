// The in-process model the Node loop benchmarks share: it answers at once, so what is timed is ours.
import type { Engine } from '../../src/index.js';
import type { EngineEvent, EngineRequest } from '../../src/extend/index.js';

/** What a calling engine says: `calls` calls of `name`, the i-th with `argsText(i)`, then `finalText`. */
export interface CallingScript {
  name: string;
  calls: number;
  /** Arguments as JSON text, as a server sends them. */
  argsText: (i: number) => string;
  finalText: string;
  /** Text streamed before the calls, in these pieces (none by default). */
  deltas?: readonly string[];
  /** `tags`: the calls written as `[TOOL_CALL]` blocks in the text (an engine without native tools); default native. */
  calling?: 'native' | 'tags';
}

/**
 * A reusable in-process model: a request whose last message is a tool result gets the final
 * text (in the script's pieces, if it has any); any other gets the script's calls (ids unique
 * across runs). It reads nothing else of the request, so what a request costs to build is ours.
 */
export function callingEngine({ name, calls, argsText, finalText, deltas = [], calling = 'native' }: CallingScript): Engine {
  let next = 0;
  return {
    nativeTools: calling === 'native',
    async *stream(request: EngineRequest): AsyncGenerator<EngineEvent> {
      for (const text of deltas) yield { type: 'text', text };
      if (request.messages.at(-1)?.role === 'tool') {
        yield { type: 'text', text: finalText };
        yield { type: 'finish', reason: 'stop' };
        return;
      }
      for (let i = 0; i < calls; i++) {
        if (calling === 'tags') yield { type: 'text', text: `[TOOL_CALL]{"name":${JSON.stringify(name)},"args":${argsText(i)}}[/TOOL_CALL]` };
        else yield { type: 'tool_call', call: { id: `call_${next++}`, name, arguments: argsText(i) } };
      }
      yield { type: 'finish', reason: calling === 'tags' ? 'stop' : 'tool_calls' };
    },
  };
}
