// Hold mode over the wire: the OpenAI-compatible engine against a real loopback HTTP server that
// reads every raw request body. No body of the run's model carries a byte of a held value (the
// canary), through reads, references, inspection, answers, later runs, trimming and a resume.
import { afterEach, describe, expect, it } from 'vitest';
import { Agent, ChatRunner, defineTool, MemoryConversationStore, MemoryToolCallJournal, openAICompatible, type ToolMessage } from '../../src/index.js';
import { CANARY, HELD_PAGE, leaked, readPage, type Sent, sendEmail } from '../support/hold.js';
import { type RecordedRequest, type SseServer, startSseServer } from './sse-server.js';

type WireCall = { id: string; name: string; args: unknown };
type WireReply = { calls: WireCall[] } | { text: string };

/** A chat completion streamed as OpenAI's server streams it. */
function streamed(reply: WireReply): string[] {
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
    `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  const usage = `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [], usage: { prompt_tokens: 20, completion_tokens: 3, total_tokens: 23 } })}\n\n`;
  if ('text' in reply) return [chunk({ role: 'assistant', content: reply.text }, 'stop'), usage, 'data: [DONE]\n\n'];
  const toolCalls = reply.calls.map((call, index) => ({
    index,
    id: call.id,
    type: 'function',
    function: { name: call.name, arguments: JSON.stringify(call.args) },
  }));
  return [chunk({ role: 'assistant', tool_calls: toolCalls }, 'tool_calls'), usage, 'data: [DONE]\n\n'];
}

/** The raw bodies the model server read: the planner's (they offer tools) and the reader's (they offer none). */
const plannerBodies = (server: SseServer) => server.requests.filter((r) => Array.isArray(r.json.tools) && r.json.tools.length > 0).map((r) => r.body);
const readerBodies = (server: SseServer) => server.requests.filter((r) => !r.json.tools?.length).map((r) => r.body);

let server: SseServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A model server whose planner answers `plan(request)`; the reader answers `read(request)`. */
async function modelServer(plan: (request: RecordedRequest) => WireReply, read: (request: RecordedRequest) => string = () => '{}') {
  server = await startSseServer((request) => ({
    headers: { 'content-type': 'text/event-stream' },
    pieces: request.json.tools?.length ? streamed(plan(request)) : streamed({ text: read(request) }),
  }));
  return server;
}

/** How many tool results the request holds since its last user message of the person. */
function resultsSincePerson(request: RecordedRequest): number {
  const messages = request.json.messages as Array<{ role: string; content: string | null }>;
  const person = messages.findLastIndex((m) => m.role === 'user');
  return messages.slice(person + 1).filter((m) => m.role === 'tool').length;
}

describe('hold mode over the OpenAI-compatible wire (a real loopback server reading raw bodies)', () => {
  it('reads, passes, inspects and names a held value: the canary is in the reader’s bodies only, never in a planner’s', async () => {
    const meeting = { type: 'object', properties: { meeting: { type: 'boolean' } }, required: ['meeting'], additionalProperties: false };
    const model = await modelServer(
      (request) => {
        const script: WireReply[] = [
          { calls: [{ id: 'r1', name: 'read_page', args: {} }] },
          { calls: [{ id: 'i1', name: 'inspect_held', args: { value: { $held: '$1' }, instructions: 'Does it ask to meet?', output: meeting } }] },
          { calls: [{ id: 'm1', name: 'send_email', args: { to: 'me@home.example', body: { $held: '$1' } } }] },
          { text: 'I mailed you the page: $1' },
        ];
        return script[resultsSincePerson(request)]!;
      },
      () => '{"meeting":false}',
    );
    const sent: Sent[] = [];
    const conversations = new MemoryConversationStore();
    const agent = (await Agent.make(openAICompatible({ baseURL: model.baseURL, model: 'm' }), { untrusted: 'hold', conversations }))
      .tool(readPage())
      .tool(sendEmail(sent));
    const result = await new ChatRunner().run(agent, 'mail me the page', { conversation: 'w' }).result;
    expect(sent[0]!.body).toBe(HELD_PAGE);
    expect(result.held).toEqual([{ id: '$1', from: 'read_page', value: HELD_PAGE }]);
    expect(plannerBodies(model)).toHaveLength(4);
    expect(leaked(plannerBodies(model))).toEqual([]);
    // The check would see a leak: the reader's request carries the page, and is the only one that does.
    expect(leaked(readerBodies(model))).toHaveLength(1);
    // The handle and the reference are all the planner saw of it.
    expect(plannerBodies(model)[3]).toContain('{\\"held\\":\\"$1\\",\\"from\\":\\"read_page\\"');
    expect(plannerBodies(model)[2]).not.toContain('"untrusted"');
  });

  it('trimming for a small context never shows what was held: every later request, however trimmed, carries no canary', async () => {
    let turn = 0;
    const model = await modelServer((request) => {
      turn++;
      if (resultsSincePerson(request) === 0) return { calls: [{ id: `r${turn}`, name: 'read_page', args: {} }] };
      return { text: `Read: $${Math.ceil(turn / 2)}` };
    });
    const conversations = new MemoryConversationStore();
    const agent = (
      await Agent.make(openAICompatible({ baseURL: model.baseURL, model: 'm' }), {
        untrusted: 'hold',
        conversations,
        context: { maxTokens: 700, reserveTokens: 100 },
      })
    ).tool(readPage());
    const runner = new ChatRunner();
    for (let i = 0; i < 8; i++) await runner.run(agent, `read the page again (${i})`, { conversation: 't' }).result;
    const stored = await conversations.load('t');
    expect(stored.length).toBeGreaterThan(30);
    // The budget trimmed: the last request holds fewer messages than the conversation.
    expect(model.requests.at(-1)!.json.messages.length).toBeLessThan(stored.length);
    expect(leaked(model.requests.map((r) => r.body))).toEqual([]);
    expect(JSON.stringify(stored)).not.toContain(CANARY);
    expect((await conversations.held.list('t')).map((info) => info.id)).toEqual(['$1', '$2', '$3', '$4', '$5', '$6', '$7', '$8']);
  });

  it('a resume repairs an interrupted call from its journal: the journalled output is held before the model reads it', async () => {
    const conversations = new MemoryConversationStore();
    const journal = new MemoryToolCallJournal();
    // An untrusted tool that changes something (journalled): it ran, then the page closed before its result was stored.
    const openMail = defineTool({
      name: 'open_mail',
      description: 'Open the newest mail (marks it read)',
      parameters: { type: 'object', properties: {} },
      idempotent: false,
      untrusted: true,
      call: () => HELD_PAGE,
    });
    await conversations.append('r', [
      { role: 'user', content: 'open my newest mail' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'o1', name: 'open_mail', arguments: {}, idempotencyKey: 'k1' }] },
    ]);
    await journal.begin({ idempotencyKey: 'k1', callId: 'o1', name: 'open_mail', arguments: {}, conversation: 'r' });
    await journal.finish('k1', { id: 'o1', name: 'open_mail', ok: true, output: HELD_PAGE, attempts: 1, durationMs: 3 });
    const model = await modelServer(() => ({ text: 'It is held as $1.' }));
    const agent = (await Agent.make(openAICompatible({ baseURL: model.baseURL, model: 'm' }), { untrusted: 'hold', conversations, journal })).tool(openMail);
    const result = await new ChatRunner().run(agent, 'what did it say?', { conversation: 'r' }).result;
    const repaired = result.messages.find((m): m is ToolMessage => m.role === 'tool' && m.toolCallId === 'o1')!;
    expect(JSON.parse(repaired.content)).toEqual({ held: '$1', from: 'open_mail', type: 'string', length: JSON.stringify(HELD_PAGE).length });
    expect(leaked(model.requests.map((r) => r.body))).toEqual([]);
    expect(result.held).toEqual([{ id: '$1', from: 'open_mail', value: HELD_PAGE }]);
  });
});
