// An OpenAI-compatible chat completions server on 127.0.0.1 for the Node benchmarks that go through
// real providers (conversation-growth): both SDKs' requests reach the same server, which answers
// as `callingEngine` does: one call, or once the last message is a tool result, the final text.
// It reads each body whole and finds the last message's role from its end instead of parsing the
// body, so it costs every client the same, and little. As OpenAI's API does, it ends a stream with
// a usage chunk when the request asks for one (`stream_options.include_usage`).
import { createServer, type Server } from 'node:http';

/** What the server answers: `name` called with `args` (JSON text), then `finalText`. */
export interface CompletionsScript {
  name: string;
  args: string;
  finalText: string;
}

const chunk = (choice: Record<string, unknown>) =>
  `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, ...choice }] })}\n\n`;

const ROLE = Buffer.from('"role":"');
const USAGE = Buffer.from('"include_usage":true');

/** What a request asks, read from its body's end: its last message's role (the last `"role":"…"`: tool definitions hold none), and whether it wants usage. */
function asked(body: Buffer): { role: string; usage: boolean } {
  const at = body.lastIndexOf(ROLE);
  if (at === -1) throw new Error('local completions: a request without messages');
  const start = at + ROLE.length;
  return { role: body.toString('utf8', start, body.indexOf('"', start)), usage: body.indexOf(USAGE, start) !== -1 };
}

/** The usage chunk OpenAI sends last when asked: no choices, the counts (here the body's length over four). */
const usageChunk = (bodyBytes: number, completion: number) => {
  const prompt = Math.ceil(bodyBytes / 4);
  return `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [], usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion } })}\n\n`;
};

/** Start the server; `baseURL` ends in `/v1`. Counts the requests it answered. */
export async function startCompletions(script: CompletionsScript): Promise<{ baseURL: string; requests: () => number; close: () => Promise<void> }> {
  const call = chunk({
    delta: { role: 'assistant', tool_calls: [{ index: 0, id: 'call_0', type: 'function', function: { name: script.name, arguments: script.args } }] },
    finish_reason: null,
  });
  const calling = `${call}${chunk({ delta: {}, finish_reason: 'tool_calls' })}`;
  const answering = `${chunk({ delta: { role: 'assistant', content: script.finalText }, finish_reason: null })}${chunk({ delta: {}, finish_reason: 'stop' })}`;
  let answered = 0;
  const server: Server = createServer((request, response) => {
    const pieces: Buffer[] = [];
    request.on('data', (piece: Buffer) => pieces.push(piece));
    request.on('end', () => {
      if (request.method !== 'POST' || !request.url?.endsWith('/v1/chat/completions')) {
        response.writeHead(404).end();
        return;
      }
      answered++;
      const body = Buffer.concat(pieces);
      const { role, usage } = asked(body);
      response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
      response.end(`${role === 'tool' ? answering : calling}${usage ? usageChunk(body.length, 10) : ''}data: [DONE]\n\n`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests: () => answered,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
