// The OpenAI-compatible model the Chromium benchmarks talk to, served by the bench's own HTTP
// server (POST …/v1/chat/completions), scripted by the request's `model`:
// - `answer` (any other name too): a call of the page's `read_title`, then, once its result is
//   in, ANSWER: the first answer of the bundle and cold-start apps.
// - `busy`: BUSY_BYTES of prose in 4-character deltas (about one token each) and BUSY_CALLS calls
//   of the page's `note`, then, once their results are in, a short answer: main-thread-busy.
// - any model under a base URL `…/long-answer/v1` (the AI SDK app names its model itself): an answer
//   of LONG_ANSWER_TOKENS 4-character deltas, LONG_ANSWER_CHARS in all: answer-100k-tokens.
// - any model under a base URL `…/tool-result/v1`: a call of the page's `read_listings`, then, once
//   its result is in, a receipt as the answer (bench/lib/listings.ts): when that request's body had
//   arrived whole, and its bytes: tool-result-1mb.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { LISTINGS_TOOL, type Receipt } from './listings.js';

export const ANSWER = 'The title is "bundle-size: ours".';
export const BUSY_BYTES = 200 * 1024;
export const BUSY_CALLS = 20;
export const BUSY_ANSWER = 'Noted them all.';
export const LONG_ANSWER_TOKENS = 100_000;
export const LONG_ANSWER_CHARS = 4 * LONG_ANSWER_TOKENS;

const chunk = (choice: Record<string, unknown>) =>
  `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, ...choice }] })}\n\n`;

const answer = (text: string) => [chunk({ delta: { role: 'assistant', content: text }, finish_reason: null }), chunk({ delta: {}, finish_reason: 'stop' })];

const calls = (name: string, count: number, args: (i: number) => string) => [
  chunk({
    delta: {
      role: 'assistant',
      tool_calls: Array.from({ length: count }, (_, i) => ({ index: i, id: `call_${i}`, type: 'function', function: { name, arguments: args(i) } })),
    },
    finish_reason: null,
  }),
  chunk({ delta: {}, finish_reason: 'tool_calls' }),
];

/** `chars` of prose as SSE chunks of 4-character deltas (about one token each). */
function prose(chars: number): string[] {
  const line = 'The quick brown fox jumps over the lazy dog; pack my box with five dozen liquor jugs.\n';
  const text = line.repeat(Math.ceil(chars / line.length)).slice(0, chars);
  const pieces: string[] = [];
  for (let at = 0; at < text.length; at += 4) pieces.push(chunk({ delta: { content: text.slice(at, at + 4) }, finish_reason: null }));
  return pieces;
}

/** The busy reply's body, built once: prose in 4-character deltas, then the calls. */
let busyReply: string | undefined;
function busy(): string {
  busyReply ??= [...prose(BUSY_BYTES), ...calls('note', BUSY_CALLS, (i) => JSON.stringify({ text: `note ${i}` }))].join('');
  return busyReply;
}

/** The long answer's body, built once. */
let longReply: string | undefined;
function longAnswer(): string {
  longReply ??= [...prose(LONG_ANSWER_CHARS), chunk({ delta: {}, finish_reason: 'stop' })].join('');
  return longReply;
}

/** tool-result-1mb: the call of the page's listings tool, and the answer once its result is in. */
const listingsCall = calls(LISTINGS_TOOL.name, 1, () => '{}').join('');
const receiptReply = (receipt: Receipt) => answer(JSON.stringify(receipt)).join('');

/** Whether `path` is the scripted model's endpoint (under any base path). */
export const isCompletions = (method: string | undefined, path: string) => method === 'POST' && path.endsWith('/v1/chat/completions');

/** Answer one chat completion request as the script says. */
export async function completions(request: IncomingMessage, response: ServerResponse): Promise<void> {
  let body = '';
  for await (const piece of request) body += piece;
  const receivedAt = performance.timeOrigin + performance.now();
  const { model, messages } = JSON.parse(body) as { model: string; messages: Array<{ role: string }> };
  const answered = messages.at(-1)?.role === 'tool';
  let reply: string;
  if (request.url?.includes('/long-answer/')) reply = longAnswer();
  else if (request.url?.includes('/tool-result/')) reply = answered ? receiptReply({ receivedAt, bytes: Buffer.byteLength(body) }) : listingsCall;
  else if (model === 'busy') reply = answered ? answer(BUSY_ANSWER).join('') : busy();
  else reply = (answered ? answer(ANSWER) : calls('read_title', 1, () => '{}')).join('');
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
  response.end(`${reply}data: [DONE]\n\n`);
}
