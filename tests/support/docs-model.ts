// The model server the docs' snippets talk to when the tests run them: OpenAI-compatible, SSE
// streaming, CORS open. Each snippet asks at `<url>/s/<snippet id>/v1`, so its replies are its own:
// a script given for it (SCRIPTS below) in order, else what a plain model would do with the
// request: call the first tool offered (arguments made from its schema) until a tool result
// came back, answer a `response_format` schema with JSON that fits it, otherwise say "Done.".
// `GET <url>/s/<id>/bodies` gives the raw request bodies that id's requests sent, in order.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface DocsModelReply {
  text?: string;
  toolCalls?: Array<{ name: string; arguments: unknown }>;
}

/** Replies for the snippets whose point needs a particular answer (an `output` schema the request does not carry). */
export const SCRIPTS: Record<string, DocsModelReply[]> = {
  // z.object({ city, celsius (int), at (an ISO date, turned into a Date) }), told in the system prompt only.
  'docs/typed-answers.md#1': [{ text: '{"city":"Oslo","celsius":-3,"at":"2026-01-15T12:00:00Z"}' }],
  // A model in hold mode that plans from the person's request: it reads the page (held as $1), mails it by reference, and names it.
  'docs/untrusted-content.md#4': [
    { toolCalls: [{ name: 'read_page', arguments: { url: 'https://example.com' } }] },
    { toolCalls: [{ name: 'send_email', arguments: { to: 'me@home.example', body: { $held: '$1' } } }] },
    { text: 'I mailed you $1.' },
  ],
  // tests/browser/parts-worker.test.ts, hold mode: read the page's screenshot (held as $1), then name it.
  'parts-hold': [{ toolCalls: [{ name: 'page_shot', arguments: {} }] }, { text: 'The page: $1.' }],
};

type Schema = Record<string, unknown>;

/** A value that fits a JSON Schema, as small as it can be (objects get their required properties). */
export function instanceOf(schema: Schema | undefined): unknown {
  if (!schema) return null;
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  const options = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (options?.length) return instanceOf(options[0]);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, Schema>;
      const required = (schema.required ?? []) as string[];
      return Object.fromEntries(required.map((key) => [key, instanceOf(properties[key])]));
    }
    case 'array':
      return Array.from({ length: Number(schema.minItems ?? 0) }, () => instanceOf(schema.items as Schema));
    case 'string':
      return schema.format === 'date-time' ? '2026-01-15T12:00:00Z' : 'x'.repeat(Math.max(1, Number(schema.minLength ?? 1)));
    case 'integer':
    case 'number':
      return Number(schema.minimum ?? 1);
    case 'boolean':
      return true;
    default:
      return null;
  }
}

interface ChatRequest {
  messages?: Array<{ role: string; content?: unknown }>;
  tools?: Array<{ function: { name: string; parameters?: Schema } }>;
  response_format?: { json_schema?: { schema?: Schema } };
}

/** What a plain model answers to this request (see the file's header). */
function plainReply(request: ChatRequest): DocsModelReply {
  const schema = request.response_format?.json_schema?.schema;
  if (schema) return { text: JSON.stringify(instanceOf(schema)) };
  const messages = request.messages ?? [];
  // The person's last message: a runtime note (a tool's image after its results, say) is not one.
  const lastUser = messages.findLastIndex((m) => m.role === 'user' && !isRuntimeNote(m));
  const lastTool = messages.findLastIndex((m) => m.role === 'tool');
  const tool = request.tools?.[0]?.function;
  if (tool && lastTool < lastUser) return { toolCalls: [{ name: tool.name, arguments: instanceOf(tool.parameters ?? { type: 'object' }) }] };
  return { text: 'Done.' };
}

/** A user message ambi-web wrote (`[runtime] …`, as text or as the first text part), not the person. */
function isRuntimeNote(message: { content?: unknown }): boolean {
  const { content } = message;
  const text = typeof content === 'string' ? content : Array.isArray(content) ? (content[0] as { text?: unknown } | undefined)?.text : undefined;
  return typeof text === 'string' && text.startsWith('[runtime]');
}

const CORS = { 'access-control-allow-origin': '*', 'access-control-allow-headers': '*', 'access-control-allow-methods': 'POST, OPTIONS' };

function stream(res: ServerResponse, reply: DocsModelReply): void {
  res.writeHead(200, { ...CORS, 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const send = (delta: object, finish: string | null = null) =>
    res.write(`data: ${JSON.stringify({ id: 'chatcmpl-docs', object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`);
  const text = reply.text ?? '';
  for (let at = 0; at < text.length; at += 16) send({ content: text.slice(at, at + 16) });
  (reply.toolCalls ?? []).forEach((call, index) =>
    send({
      tool_calls: [{ index, id: `call_${index}_${Date.now()}`, type: 'function', function: { name: call.name, arguments: JSON.stringify(call.arguments) } }],
    }),
  );
  send({}, reply.toolCalls?.length ? 'tool_calls' : 'stop');
  res.write(`data: ${JSON.stringify({ id: 'chatcmpl-docs', choices: [], usage: { prompt_tokens: 12, completion_tokens: 3, total_tokens: 15 } })}\n\n`);
  res.end('data: [DONE]\n\n');
}

async function rawBody(req: IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of req) text += chunk;
  return text;
}

/** Start the docs' model server on a free port of 127.0.0.1; `baseURL(id)` is what snippet `id` asks. */
export async function startDocsModel(scripts: Record<string, DocsModelReply[]> = SCRIPTS) {
  const served = new Map<string, number>();
  const bodies = new Map<string, string[]>();
  const server = createServer(async (req, res) => {
    if (req.method === 'OPTIONS') return void res.writeHead(204, CORS).end();
    const asked = /^\/s\/([^/]+)\/bodies$/.exec(req.url ?? '');
    if (asked && req.method === 'GET') {
      res.writeHead(200, { ...CORS, 'content-type': 'application/json' });
      return void res.end(JSON.stringify(bodies.get(decodeURIComponent(asked[1]!)) ?? []));
    }
    const match = /^\/s\/([^/]+)\/v1\/chat\/completions$/.exec(req.url ?? '');
    if (!match || req.method !== 'POST') return void res.writeHead(404, CORS).end('not found');
    const id = decodeURIComponent(match[1]!);
    const raw = await rawBody(req);
    bodies.set(id, [...(bodies.get(id) ?? []), raw]);
    const request = (raw ? JSON.parse(raw) : {}) as ChatRequest;
    const n = served.get(id) ?? 0;
    served.set(id, n + 1);
    stream(res, scripts[id]?.[n] ?? plainReply(request));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    baseURL: (id: string) => `${origin}/s/${encodeURIComponent(id)}/v1`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
