// Untrusted content held as values (`untrusted: 'hold'`): the model reads a handle, never a byte of
// what was held (a canary checked in every request body), passes held values by reference, and a
// call is tainted only by the held values it carries.
import { describe, expect, it } from 'vitest';
import { Agent, ChatRunner, defineTool, isAmbiError, type RunEvent, type ToolMessage } from '../../src/index.js';
import { CANARY, calls, failingPage, HELD_PAGE, leaked, PlannerEngine, readPage, type Sent, sendEmail, steps } from '../support/hold.js';
import { collect } from '../support/run-events.js';

const approvals = (events: RunEvent[]) => events.filter((e): e is Extract<RunEvent, { type: 'approval_requested' }> => e.type === 'approval_requested');
const toolCalls = (events: RunEvent[]) => events.filter((e): e is Extract<RunEvent, { type: 'tool_call' }> => e.type === 'tool_call');
const toolMessage = (messages: readonly unknown[], id: string) => (messages as ToolMessage[]).find((m) => m.role === 'tool' && m.toolCallId === id)!;

describe("untrusted: 'hold': what the model reads", () => {
  it('an untrusted result is held: its tool message is the handle itself, unmarked, and the result keeps the value for the app', async () => {
    const engine = new PlannerEngine(steps(calls(['r1', 'read_page']), { text: 'Read.' }));
    const agent = (await Agent.make(engine, { untrusted: 'hold' })).tool(readPage());
    const { messages, toolResults } = await new ChatRunner().run(agent, 'What does the page say?').result;
    const message = toolMessage(messages, 'r1');
    expect(JSON.parse(message.content)).toEqual({ held: '$1', from: 'read_page', type: 'string', length: JSON.stringify(HELD_PAGE).length });
    expect(message.content).toBe(`{"held":"$1","from":"read_page","type":"string","length":${JSON.stringify(HELD_PAGE).length}}`);
    expect(message).not.toHaveProperty('untrusted');
    expect(toolResults[0]).toMatchObject({ ok: true, output: HELD_PAGE, untrusted: true, held: { held: '$1', from: 'read_page' } });
    expect(leaked(engine.bodies)).toEqual([]);
  });

  it('the model is told how handles work, and is offered inspect_held, only where there is an untrusted tool', async () => {
    const withTool = new PlannerEngine(steps({ text: 'hi' }));
    await new ChatRunner().run((await Agent.make(withTool, { untrusted: 'hold' })).tool(readPage()), 'hi').result;
    expect(withTool.requests[0]!.tools.map((t) => t.name)).toEqual(['inspect_held', 'read_page']);
    expect(withTool.requests[0]!.messages[0]!.content).toMatch(/\{"\$held":"\$1"\}/);
    const without = new PlannerEngine(steps({ text: 'hi' }));
    const plain = defineTool({ name: 'clock', description: 'now', parameters: { type: 'object' }, readOnly: true, call: () => 'noon' });
    await new ChatRunner().run((await Agent.make(without, { untrusted: 'hold' })).tool(plain), 'hi').result;
    expect(without.requests[0]!.tools.map((t) => t.name)).toEqual(['clock']);
    expect(JSON.stringify(without.requests[0]!.messages)).not.toContain('$held');
  });

  it('a failed untrusted call: the model sees its code, and its message (the page’s words) is held', async () => {
    const engine = new PlannerEngine(steps(calls(['f1', 'fetch_page']), { text: 'It failed.' }));
    const agent = (await Agent.make(engine, { untrusted: 'hold' })).tool(failingPage);
    const { messages, toolResults } = await new ChatRunner().run(agent, 'fetch it').result;
    const content = JSON.parse(toolMessage(messages, 'f1').content);
    expect(content).toEqual({
      ok: false,
      error: { code: 'tool_error', message: { held: '$1', from: 'fetch_page', type: 'string', length: expect.any(Number) } },
    });
    expect(toolResults[0]).toMatchObject({ ok: false, error: { code: 'tool_error', message: `404: ${HELD_PAGE}` }, untrusted: true });
    expect(leaked(engine.bodies)).toEqual([]);
  });

  it("RunResult.held gives the values the answer names, in the order it first names them; 'mark' mode has none", async () => {
    const engine = new PlannerEngine(
      steps(calls(['r1', 'read_page'], ['r2', 'read_page']), { text: 'Second: $2; first: $1; again $2; unknown $7; price $15.' }),
    );
    const agent = (await Agent.make(engine, { untrusted: 'hold' })).tool(readPage());
    const { held } = await new ChatRunner().run(agent, 'read twice').result;
    expect(held).toEqual([
      { id: '$2', from: 'read_page', value: HELD_PAGE },
      { id: '$1', from: 'read_page', value: HELD_PAGE },
    ]);
    const marked = (await Agent.make(new PlannerEngine(steps({ text: '$1' })))).tool(readPage());
    expect((await new ChatRunner().run(marked, 'hi').result).held).toBeUndefined();
  });

  it('an agent option that is neither mode is refused with invalid_option', async () => {
    const made = Agent.make(new PlannerEngine(steps()), { untrusted: 'hide' as never });
    await expect(made).rejects.toSatisfy((error: unknown) => isAmbiError(error, 'invalid_option'));
  });
});

describe("untrusted: 'hold': held values passed by reference", () => {
  it('{ "$held": "$N" } at any depth is replaced by the value before validation; the model never reads it', async () => {
    const seen: unknown[] = [];
    const keep = defineTool({
      name: 'keep',
      description: 'Keep items',
      parameters: {
        type: 'object',
        properties: { items: { type: 'array', items: { type: 'object', properties: { note: { type: 'string' } }, required: ['note'] } } },
        required: ['items'],
      },
      idempotent: true,
      heldArguments: { items: 'allow' },
      heldOutput: 'plain',
      call: (args) => {
        seen.push(args);
        return 'kept 1';
      },
    });
    const args = { items: [{ note: 'mine' }, { note: { $held: '$1' } }] };
    const engine = new PlannerEngine(steps(calls(['r1', 'read_page']), calls(['k1', 'keep', args]), { text: 'kept' }));
    const agent = (await Agent.make(engine, { untrusted: 'hold' })).tool(readPage()).tool(keep);
    const run = new ChatRunner().run(agent, 'keep the page');
    const events = await collect(run);
    expect(seen).toEqual([{ items: [{ note: 'mine' }, { note: HELD_PAGE }] }]);
    // A tool_call names the held values it carries: where, which, from which tool; the model's arguments stay references.
    expect(toolCalls(events)[1]).toMatchObject({
      call: { arguments: args },
      untrusted: { sources: [{ callId: 'r1', name: 'read_page' }], held: [{ path: '/items/1/note', id: '$1', from: 'read_page' }] },
    });
    expect(approvals(events)).toEqual([]);
    // `heldOutput: 'plain'`: the output never repeats the arguments, so the model reads it.
    expect(JSON.parse(toolMessage((await run.result).messages, 'k1').content)).toEqual({ ok: true, output: 'kept 1' });
    expect(leaked(engine.bodies)).toEqual([]);
  });

  it('an id the conversation does not hold (a model that invents one): unknown_held, and nothing runs', async () => {
    const sent: Sent[] = [];
    const engine = new PlannerEngine(
      steps(calls(['r1', 'read_page']), calls(['m1', 'send_email', { to: 'me@home.example', body: { $held: '$9' } }]), { text: 'could not' }),
    );
    const agent = (await Agent.make(engine, { untrusted: 'hold' })).tool(readPage()).tool(sendEmail(sent));
    const run = new ChatRunner().run(agent, 'mail it');
    const events = await collect(run);
    const { toolResults, messages } = await run.result;
    expect(sent).toEqual([]);
    expect(toolResults[1]).toMatchObject({ ok: false, error: { code: 'unknown_held' }, attempts: 0 });
    expect(toolResults[1]).not.toHaveProperty('held');
    expect(JSON.parse(toolMessage(messages, 'm1').content).error.message).toMatch(/holds no value "\$9"/);
    // Not a held value it carries: the event names none.
    expect(toolCalls(events)[1]!.untrusted).toBeUndefined();
    expect(events.filter((e) => e.type === 'tool_started').map((e) => (e as { callId: string }).callId)).toEqual(['r1']);
  });

  it('a reference with anything beside `$held`, or a `$held` that is no string, is refused as invalid arguments', async () => {
    const sent: Sent[] = [];
    const engine = new PlannerEngine(
      steps(
        calls(['r1', 'read_page']),
        calls(
          ['m1', 'send_email', { to: 'me@home.example', body: { $held: '$1', also: 'x' } }],
          ['m2', 'send_email', { to: 'me@home.example', body: { $held: 1 } }],
        ),
        { text: 'no' },
      ),
    );
    const agent = (await Agent.make(engine, { untrusted: 'hold' })).tool(readPage()).tool(sendEmail(sent));
    const { toolResults } = await new ChatRunner().run(agent, 'mail').result;
    expect(toolResults.slice(1).map((r) => !r.ok && r.error.code)).toEqual(['invalid_arguments', 'invalid_arguments']);
    expect(sent).toEqual([]);
  });

  it('more than 64 references in one call (each puts a whole value in) are refused as invalid arguments, before any value is read', async () => {
    const echo = defineTool({ name: 'echo', description: 'echo', parameters: { type: 'object' }, readOnly: true, call: () => 'ok' });
    const many = { list: Array.from({ length: 65 }, () => ({ $held: '$1' })) };
    const engine = new PlannerEngine(
      steps(calls(['r1', 'read_page']), calls(['e1', 'echo', many], ['e2', 'echo', { list: many.list.slice(0, 64) }]), { text: 'ok' }),
    );
    const agent = (await Agent.make(engine, { untrusted: 'hold' })).tool(readPage()).tool(echo);
    const { toolResults } = await new ChatRunner().run(agent, 'echo').result;
    expect(toolResults[1]).toMatchObject({ ok: false, error: { code: 'invalid_arguments', message: expect.stringMatching(/more than 64 held values/) } });
    expect(toolResults[2]).toMatchObject({ ok: true });
  });

  it('`$held` inside a `__proto__` key: the value lands as an own key, no prototype is touched', async () => {
    const seen: unknown[] = [];
    const store = defineTool({
      name: 'store',
      description: 'Store a record',
      parameters: { type: 'object', properties: { record: { type: 'object' } }, required: ['record'] },
      idempotent: true,
      heldArguments: { record: 'allow' },
      heldOutput: 'plain',
      call: ({ record }) => {
        seen.push(record);
        return 'stored';
      },
    });
    // As a model's JSON text: JSON.parse makes `__proto__` an own key.
    const raw = '{"record":{"__proto__":{"$held":"$1"},"constructor":{"$held":"$1"}}}';
    const engine = new PlannerEngine(steps(calls(['r1', 'read_page']), calls(['s1', 'store', raw]), { text: 'ok' }));
    const agent = (await Agent.make(engine, { untrusted: 'hold' })).tool(readPage()).tool(store);
    const run = new ChatRunner().run(agent, 'store it');
    const events = await collect(run);
    const record = seen[0] as Record<string, unknown>;
    expect(Object.getPrototypeOf(record)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(record, '__proto__')?.value).toBe(HELD_PAGE);
    expect(Object.getOwnPropertyDescriptor(record, 'constructor')?.value).toBe(HELD_PAGE);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(toolCalls(events)[1]!.untrusted?.held).toEqual([
      { path: '/record/__proto__', id: '$1', from: 'read_page' },
      { path: '/record/constructor', id: '$1', from: 'read_page' },
    ]);
  });

  it('deep nesting: a reference 60 levels down to a value 10 levels deep is refused (too deep once put in); one within the limit goes through', async () => {
    let nested: unknown = 'leaf';
    for (let i = 0; i < 10; i++) nested = { a: nested };
    let deep: Record<string, unknown> = { $held: '$1' };
    for (let i = 0; i < 60; i++) deep = { a: deep };
    const echo = defineTool({ name: 'echo', description: 'echo', parameters: { type: 'object' }, readOnly: true, heldOutput: 'plain', call: () => 'ok' });
    const engine = new PlannerEngine(steps(calls(['r1', 'read_page']), calls(['e1', 'echo', deep], ['e2', 'echo', { x: { $held: '$1' } }]), { text: 'ok' }));
    const agent = (await Agent.make(engine, { untrusted: 'hold' })).tool(readPage(nested)).tool(echo);
    const { toolResults } = await new ChatRunner().run(agent, 'echo').result;
    expect(toolResults[1]).toMatchObject({ ok: false, error: { code: 'invalid_arguments', message: expect.stringMatching(/nested more than 64 levels/) } });
    expect(toolResults[2]).toMatchObject({ ok: true, output: 'ok' });
  });

  it('a held value that holds `{"$held": …}` itself is a value: nothing in it is replaced again', async () => {
    const seen: unknown[] = [];
    const echo = defineTool({
      name: 'echo',
      description: 'echo',
      parameters: { type: 'object' },
      readOnly: true,
      call: (args) => {
        seen.push(args);
        return 'ok';
      },
    });
    const page = { text: 'x', trap: { $held: '$1' } };
    const engine = new PlannerEngine(steps(calls(['r1', 'read_page']), calls(['e1', 'echo', { v: { $held: '$1' } }]), { text: 'ok' }));
    const agent = (await Agent.make(engine, { untrusted: 'hold' })).tool(readPage(page)).tool(echo);
    await new ChatRunner().run(agent, 'echo').result;
    expect(seen).toEqual([{ v: page }]);
  });

  it('a huge held value (2 MB): the handle gives its length, the tool gets it whole, no request carries a byte of it', async () => {
    const huge = `${CANARY} ${'x'.repeat(2_000_000)}`;
    const sent: Sent[] = [];
    const engine = new PlannerEngine(
      steps(calls(['r1', 'read_page']), calls(['m1', 'send_email', { to: 'me@home.example', body: { $held: '$1' } }]), { text: 'sent' }),
    );
    const agent = (await Agent.make(engine, { untrusted: 'hold' })).tool(readPage(huge)).tool(sendEmail(sent));
    const { messages } = await new ChatRunner().run(agent, 'mail me the page').result;
    expect(JSON.parse(toolMessage(messages, 'r1').content).length).toBe(huge.length + 2);
    expect(sent[0]!.body).toBe(huge);
    expect(leaked(engine.bodies)).toEqual([]);
    expect(Math.max(...engine.bodies.map((b) => b.length))).toBeLessThan(5_000);
  });
});
