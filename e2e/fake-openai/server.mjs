#!/usr/bin/env node
// A scriptable OpenAI-compatible server for the demo's e2e tests: it streams SSE like the real thing.
//   POST /__script  { replies: Reply[] }   queue the next replies (and reset recorded requests)
//   GET  /__requests                        the chat requests received since the last script
//   POST /v1/chat/completions               streams the next reply
//   POST /__csp-report, GET|DELETE /__csp-reports   CSP violation reports (report-uri)
//   GET  /models/stalled.gguf               a model download that sends half its bytes, then stalls
//   GET  /__downloads                        { started, closed }: stalled downloads begun, and ended by the client
// Reply: { text?, toolCalls?: [{ id?, name, arguments }], chunkDelayMs?, delayMs?, status?, error? }
import { createServer } from 'node:http';

const port = Number(process.env.FAKE_OPENAI_PORT ?? 4310);
let replies = [];
let requests = [];
let cspReports = [];
const downloads = { started: 0, closed: 0 };

const cors = {
  'access-control-allow-origin': '*',
  'access-control-allow-headers': 'content-type, authorization',
  'access-control-allow-methods': 'GET, POST, OPTIONS',
};
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const readBody = async (req) => {
  let body = '';
  for await (const chunk of req) body += chunk;
  return body ? JSON.parse(body) : {};
};

async function streamReply(req, res, reply) {
  if (reply.delayMs) await sleep(reply.delayMs);
  if (reply.status && reply.status !== 200) {
    res.writeHead(reply.status, { ...cors, 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { message: reply.error ?? `status ${reply.status}` } }));
    return;
  }
  res.writeHead(200, { ...cors, 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  let open = true;
  req.on('close', () => (open = false));
  const send = async (delta, finish = null) => {
    if (!open) return;
    res.write(`data: ${JSON.stringify({ id: 'chatcmpl-fake', object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`);
    if (reply.chunkDelayMs) await sleep(reply.chunkDelayMs);
  };
  const text = reply.text ?? '';
  for (let at = 0; at < text.length; at += 12) await send({ content: text.slice(at, at + 12) });
  (reply.toolCalls ?? []).forEach((call, index) => (call.index = index));
  for (const call of reply.toolCalls ?? []) {
    await send({
      tool_calls: [
        { index: call.index, id: call.id ?? `call_${Math.random().toString(36).slice(2, 10)}`, type: 'function', function: { name: call.name, arguments: '' } },
      ],
    });
    await send({ tool_calls: [{ index: call.index, function: { arguments: JSON.stringify(call.arguments ?? {}) } }] });
  }
  await send({}, reply.toolCalls?.length ? 'tool_calls' : 'stop');
  if (!open) return;
  res.write(`data: ${JSON.stringify({ id: 'chatcmpl-fake', choices: [], usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } })}\n\n`);
  res.end('data: [DONE]\n\n');
}

createServer(async (req, res) => {
  if (req.method === 'OPTIONS') return res.writeHead(204, cors).end();
  if (req.url === '/__script' && req.method === 'POST') {
    replies = (await readBody(req)).replies ?? [];
    requests = [];
    return res.writeHead(200, cors).end('ok');
  }
  if (req.url === '/__requests') return res.writeHead(200, { ...cors, 'content-type': 'application/json' }).end(JSON.stringify(requests));
  if (req.url === '/models/stalled.gguf') {
    // Half of a declared megabyte, then nothing: only the client can end this download.
    downloads.started++;
    res.on('close', () => downloads.closed++);
    res.writeHead(200, { ...cors, 'content-type': 'application/octet-stream', 'content-length': String(1 << 20) });
    return res.write(Buffer.alloc(1 << 19));
  }
  if (req.url === '/__downloads') return res.writeHead(200, { ...cors, 'content-type': 'application/json' }).end(JSON.stringify(downloads));
  if (req.url === '/health') return res.writeHead(200, cors).end('ok');
  // CSP violation reports (report-uri), from the page and from its workers alike.
  if (req.url === '/__csp-report' && req.method === 'POST') {
    cspReports.push(await readBody(req).catch(() => ({ unreadable: true })));
    return res.writeHead(204, cors).end();
  }
  if (req.url === '/__csp-reports') {
    const body = JSON.stringify(cspReports);
    if (req.method === 'DELETE') cspReports = [];
    return res.writeHead(200, { ...cors, 'content-type': 'application/json' }).end(body);
  }
  if (req.url?.endsWith('/chat/completions') && req.method === 'POST') {
    requests.push(await readBody(req));
    const reply = replies.shift() ?? { text: '(the fake model has no scripted reply left)' };
    return streamReply(req, res, reply);
  }
  res.writeHead(404, cors).end('not found');
}).listen(port, '127.0.0.1', () => console.log(`fake OpenAI-compatible server on http://127.0.0.1:${port}/v1`));
