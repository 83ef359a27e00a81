// The obedient model behind an OpenAI-compatible HTTP endpoint (streamed, with CORS), for runs whose
// engine must be plain data (a WorkerRunner's): the model is the same function as ObedientEngine's.
// It also counts the request bodies that carry the word `untrusted`: an engine never sends the mark.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { carriesDocument, type ModelMessage, obedientReply } from './model.js';
import { DOCUMENT_MARKERS } from './tasks.js';

export interface ModelServer {
  /** The API root, as `openAICompatible({ baseURL })` takes it. */
  baseURL: string;
  close(): Promise<void>;
}

const CORS = { 'access-control-allow-origin': '*', 'access-control-allow-headers': '*', 'access-control-allow-methods': 'GET, POST, OPTIONS' };

/**
 * Start the model on 127.0.0.1. `GET {baseURL}/stats` answers `{ requests, untrusted, holdRequests, holdLeaks }`:
 * the planner requests of hold-mode scenarios, and those of them whose raw body carried a document's words.
 */
export async function startModelServer(): Promise<ModelServer> {
  let requests = 0;
  let untrusted = 0;
  let holdRequests = 0;
  let holdLeaks = 0;
  // Every raw body, the planner's (they offer tools) apart from the reader's: `GET {baseURL}/bodies-with?text=…` counts those holding a text.
  const plannerBodies: string[] = [];
  const readerBodies: string[] = [];
  let ids = 0;
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    if (req.method === 'OPTIONS') return void res.writeHead(204, CORS).end();
    if (req.method === 'GET' && req.url?.includes('/bodies-with?')) {
      const text = new URL(req.url, 'http://model').searchParams.get('text') ?? '';
      const count = (list: string[]) => list.filter((body) => body.includes(text)).length;
      const answer = { planner: count(plannerBodies), reader: count(readerBodies) };
      return void res.writeHead(200, { ...CORS, 'content-type': 'application/json' }).end(JSON.stringify(answer));
    }
    if (req.method === 'GET' && req.url?.endsWith('/stats'))
      return void res.writeHead(200, { ...CORS, 'content-type': 'application/json' }).end(JSON.stringify({ requests, untrusted, holdRequests, holdLeaks }));
    let body = '';
    for await (const piece of req) body += piece;
    requests++;
    if (body.includes('"untrusted"')) untrusted++;
    const request = JSON.parse(body) as { messages: WireMessage[]; tools?: Array<{ function: { name: string } }> };
    (request.tools?.length ? plannerBodies : readerBodies).push(body);
    const messages = request.messages.map(fromWire);
    if (request.tools?.length && messages.some((m) => m.role === 'user' && m.content.includes('[hold]'))) {
      holdRequests++;
      // The raw body, not only the messages as read: nothing of a document may be anywhere in it.
      if (carriesDocument(messages) || DOCUMENT_MARKERS.some((marker) => body.includes(JSON.stringify(marker).slice(1, -1)))) holdLeaks++;
    }
    const reply = obedientReply(
      messages,
      (request.tools ?? []).map((tool) => tool.function.name),
    );
    res.writeHead(200, { ...CORS, 'content-type': 'text/event-stream' });
    const send = (value: unknown) => res.write(`data: ${JSON.stringify(value)}\n\n`);
    const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
      send({ id: 'obedient', object: 'chat.completion.chunk', created: 1, model: 'obedient', choices: [{ index: 0, delta, finish_reason: finish }] });
    if ('text' in reply) chunk({ role: 'assistant', content: reply.text }, 'stop');
    else {
      const calls = reply.calls.map((call, index) => ({
        index,
        id: `obey_${++ids}`,
        type: 'function',
        function: { name: call.name, arguments: JSON.stringify(call.arguments) },
      }));
      chunk({ role: 'assistant', tool_calls: calls }, 'tool_calls');
    }
    send({
      id: 'obedient',
      object: 'chat.completion.chunk',
      created: 1,
      model: 'obedient',
      choices: [],
      usage: { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110 },
    });
    res.end('data: [DONE]\n\n');
  };
  const server = createServer((req, res) => void handle(req, res).catch(() => res.headersSent || res.writeHead(500, CORS).end()));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

interface WireMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string | null;
  name?: string;
  tool_calls?: Array<{ function: { name: string; arguments: string } }>;
}

/** A message of the wire as the model reads it (a runtime note is a user message the SDK prefixes). */
function fromWire(message: WireMessage): ModelMessage {
  const content = message.content ?? '';
  if (message.role === 'assistant') {
    return {
      role: 'assistant',
      content,
      calls: (message.tool_calls ?? []).map((call) => ({ name: call.function.name, arguments: JSON.parse(call.function.arguments || '{}') })),
    };
  }
  if (message.role === 'tool') return { role: 'tool', content, ...(message.name ? { name: message.name } : {}) };
  if (message.role === 'user') return { role: 'user', content, ...(content.startsWith('[runtime] ') ? { runtime: true } : {}) };
  return { role: 'system', content };
}
