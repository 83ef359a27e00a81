// The UI adapters given what no UI sends: messages without parts, parts that are not a list or
// have no type, a toAgUiEvents or resume given options that are not options. Each is refused with
// a coded error before anything happens: no run starts, nothing is stored.
import type { UIMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import { toAgUiEvents } from '../../src/ag-ui/index.js';
import { agentRunner, ambiChatTransport } from '../../src/ai-sdk/index.js';
import { Agent, ChatRunner, defineTool, isAmbiError, scriptedEngine } from '../../src/index.js';
import type { ConversationRunner } from '../../src/ai-sdk/index.js';

/** A runner on a scripted model, counting the runs and resumes asked of it. */
async function countedRunner() {
  const agent = await Agent.make(scriptedEngine(['Hello.', 'Hello again.']));
  const runner = agentRunner(new ChatRunner(), agent);
  const asked = { runs: 0, resumes: 0 };
  const counted: ConversationRunner = {
    run: (input, options) => (asked.runs++, runner.run(input, options)),
    resume: (conversation, options) => (asked.resumes++, runner.resume(conversation, options)),
    pendingApprovals: (conversation) => runner.pendingApprovals(conversation),
  };
  return { agent, runner: counted, asked };
}

async function refusal(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await promise;
  } catch (error) {
    if (isAmbiError(error)) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error('expected a refusal');
}

const user = (text: string): UIMessage => ({ id: 'u1', role: 'user', parts: [{ type: 'text', text }] });

const malformed: Array<[string, unknown]> = [
  ['messages that are not a list', { 0: user('hi') }],
  ['a message that is null', [null]],
  ['a message without parts', [{ id: 'u1', role: 'user' }]],
  ['parts that are not a list', [{ id: 'u1', role: 'user', parts: 'hi' }]],
  ['parts that are an object', [{ id: 'u1', role: 'user', parts: { 0: { type: 'text', text: 'hi' } } }]],
  ['a part without a type', [{ id: 'u1', role: 'user', parts: [{ text: 'hi' }] }]],
  ['a part that is null', [{ id: 'u1', role: 'user', parts: [null] }]],
  ['a part whose type is a number', [{ id: 'u1', role: 'user', parts: [{ type: 7, text: 'hi' }] }]],
  ['a text part whose text is not a string', [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: { evil: true } }] }]],
  ['a message without a role', [{ id: 'u1', parts: [{ type: 'text', text: 'hi' }] }]],
  ['a message of an unknown role', [{ id: 'u1', role: 'admin', parts: [{ type: 'text', text: 'hi' }] }]],
  ['an earlier message without parts', [{ id: 'u0', role: 'user' }, user('hi')]],
  [
    'a tool part without a call id',
    [
      {
        id: 'a1',
        role: 'assistant',
        parts: [{ type: 'dynamic-tool', toolName: 'x', state: 'approval-responded', input: {}, approval: { id: 'c', approved: true } }],
      },
    ],
  ],
];

describe('ambiChatTransport refuses malformed UI messages', () => {
  it.each(malformed)('%s: invalid_message, no run started, nothing stored', async (_, messages) => {
    const { agent, runner, asked } = await countedRunner();
    const transport = ambiChatTransport(runner);
    const error = await refusal(
      transport.sendMessages({ trigger: 'submit-message', chatId: 'chat-1', messageId: undefined, messages: messages as UIMessage[], abortSignal: undefined }),
    );
    expect(error.code).toBe('invalid_message');
    expect(asked).toEqual({ runs: 0, resumes: 0 });
    expect(await agent.conversations.load('chat-1')).toEqual([]);
  });

  it('names where the fault is', async () => {
    const { runner } = await countedRunner();
    const error = await refusal(
      ambiChatTransport(runner).sendMessages({
        trigger: 'submit-message',
        chatId: 'chat-1',
        messageId: undefined,
        messages: [user('first'), { id: 'u2', role: 'user', parts: [{ type: 'text', text: 'ok' }, { text: 'no type' }] }] as UIMessage[],
        abortSignal: undefined,
      }),
    );
    expect(error.message).toContain('messages[1].parts[1]');
  });

  it('an unknown trigger is refused too (unsupported_trigger), before anything runs', async () => {
    const { runner, asked } = await countedRunner();
    const error = await refusal(
      ambiChatTransport(runner).sendMessages({
        trigger: 'reload-everything' as 'submit-message',
        chatId: 'chat-1',
        messageId: undefined,
        messages: [user('hi')],
        abortSignal: undefined,
      }),
    );
    expect(error.code).toBe('unsupported_trigger');
    expect(asked.runs).toBe(0);
  });

  it('a well-formed request after the refusals runs as usual', async () => {
    const { runner, asked } = await countedRunner();
    const transport = ambiChatTransport(runner);
    await refusal(transport.sendMessages({ trigger: 'submit-message', chatId: 'c', messageId: undefined, messages: [null] as never, abortSignal: undefined }));
    const stream = await transport.sendMessages({
      trigger: 'submit-message',
      chatId: 'c',
      messageId: undefined,
      messages: [user('hi')],
      abortSignal: undefined,
    });
    const reader = stream.getReader();
    const types: string[] = [];
    for (let read = await reader.read(); !read.done; read = await reader.read()) types.push(read.value.type);
    expect(types.at(-1)).toBe('finish');
    expect(asked.runs).toBe(1);
  });
});

describe('toAgUiEvents refuses input that is not AG-UI input', () => {
  it.each([
    ['options that are null', null],
    ['a threadId that is not a string', { threadId: 42 }],
    ['a runId that is an object', { runId: { toString: () => 'x' } }],
  ])('%s: invalid_option, and the run is not read', async (_, options) => {
    const { runner } = await countedRunner();
    const run = runner.run('hi', { conversation: 'ag' });
    let error: unknown;
    try {
      toAgUiEvents(run, options as never);
    } catch (caught) {
      error = caught;
    }
    expect(isAmbiError(error, 'invalid_option')).toBe(true);
    // The run's events were left for another reader.
    const types: string[] = [];
    for await (const event of run.events) types.push(event.type);
    expect(types.at(-1)).toBe('run_finished');
  });

  it('resume options that are null: RUN_STARTED then RUN_ERROR invalid_option, nothing decided, the interrupt still open', async () => {
    let sent = 0;
    const send = defineTool({
      name: 'send',
      description: 'Send',
      parameters: { type: 'object', properties: {} },
      idempotent: false,
      needsApproval: true,
      call: () => ++sent,
    });
    const agent = (await Agent.make(scriptedEngine([{ toolCalls: [{ id: 'c1', name: 'send', arguments: {} }] }, 'done']))).tool(send);
    const events = toAgUiEvents(agentRunner(new ChatRunner(), agent).run('hi', { conversation: 'ag2' }), { threadId: 'ag2' });
    for await (const _ of events) {
      // the first AG-UI run, which ends with the interrupt
    }
    const answer = [{ interruptId: 'c1', status: 'resolved' as const, payload: { approved: true } }];
    const refused: string[] = [];
    for await (const event of events.resume(answer, null as never)) refused.push(`${event.type}${'code' in event ? ` ${event.code}` : ''}`);
    expect(refused).toEqual(['RUN_STARTED', 'RUN_ERROR invalid_option']);
    expect(events.interrupts.map((i) => i.id)).toEqual(['c1']);
    expect(sent).toBe(0);
    const after: string[] = [];
    for await (const event of events.resume(answer)) after.push(event.type);
    expect(after.at(-1)).toBe('RUN_FINISHED');
    expect(sent).toBe(1);
  });
});
