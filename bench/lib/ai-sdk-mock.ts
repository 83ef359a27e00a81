// The AI SDK side of the Node loop benchmarks: ai@7 (what its users install) on its own
// MockLanguageModelV4, streaming the same parts our in-process engine yields.
import Ajv from 'ajv';
import { jsonSchema, tool, type ToolSet } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 10, text: 10, reasoning: undefined },
};

/** What the mock streams: as `callingEngine`, the calls unless the last message is a tool result, then the final text. */
export interface MockScript {
  name: string;
  calls: number;
  argsText: (i: number) => string;
  finalText: string;
  deltas?: readonly string[];
}

/** A streaming MockLanguageModelV4 answering as `callingEngine` does (same deltas, same calls, same final text). */
export function streamingMock({ name, calls, argsText, finalText, deltas = [] }: MockScript): MockLanguageModelV4 {
  let next = 0;
  const model: MockLanguageModelV4 = new MockLanguageModelV4({
    doStream: async (options) => {
      model.doStreamCalls.length = 0; // the mock records every call; keep it from growing
      const parts: unknown[] = [{ type: 'stream-start', warnings: [] }];
      const text = (pieces: readonly string[]) => {
        if (pieces.length === 0) return;
        parts.push({ type: 'text-start', id: 't' });
        for (const delta of pieces) parts.push({ type: 'text-delta', id: 't', delta });
        parts.push({ type: 'text-end', id: 't' });
      };
      const answering = options.prompt.at(-1)?.role === 'tool';
      text(answering ? [...deltas, finalText] : deltas);
      if (!answering) for (let i = 0; i < calls; i++) parts.push({ type: 'tool-call', toolCallId: `call_${next++}`, toolName: name, input: argsText(i) });
      parts.push({ type: 'finish', finishReason: answering ? { unified: 'stop', raw: 'stop' } : { unified: 'tool-calls', raw: 'tool_calls' }, usage });
      return {
        stream: new ReadableStream({
          start(controller) {
            for (const part of parts) controller.enqueue(part as never);
            controller.close();
          },
        }),
      };
    },
  });
  return model;
}

/**
 * A tool whose arguments are validated: `jsonSchema()` validates nothing unless given `validate`,
 * so it gets an Ajv validator compiled once, up front (the library ours compiles with by default).
 */
export function validatedTool(schema: Record<string, unknown>, execute: (args: Record<string, number>) => unknown): ToolSet[string] {
  const check = new Ajv({ allErrors: true }).compile(schema);
  return tool({
    description: 'Add two numbers',
    inputSchema: jsonSchema<Record<string, number>>(schema, {
      validate: (value) =>
        check(value) ? { success: true, value: value as Record<string, number> } : { success: false, error: new Error(JSON.stringify(check.errors)) },
    }),
    execute: async (args) => execute(args),
  });
}
