// The in-process model the Node loop benchmarks share: it answers at once, so what is timed is ours.
import type { Engine, EngineEvent, EngineRequest } from '../../src/index.js';

/** What a calling engine says: `calls` native calls of `name`, the i-th with `argsText(i)`, then `finalText`. */
export interface CallingScript {
  name: string;
  calls: number;
  /** Arguments as JSON text, as a server sends them. */
  argsText: (i: number) => string;
  finalText: string;
}

/**
 * A reusable in-process model: a request whose last message is a tool result gets the final
 * text; any other gets the script's native tool calls (ids unique across runs).
 */
export function callingEngine({ name, calls, argsText, finalText }: CallingScript): Engine {
  let next = 0;
  return {
    nativeTools: true,
    async *stream(request: EngineRequest): AsyncGenerator<EngineEvent> {
      if (request.messages.at(-1)?.role === 'tool') {
        yield { type: 'text', text: finalText };
        yield { type: 'finish', reason: 'stop' };
        return;
      }
      for (let i = 0; i < calls; i++) yield { type: 'tool_call', call: { id: `call_${next++}`, name, arguments: argsText(i) } };
      yield { type: 'finish', reason: 'tool_calls' };
    },
  };
}
