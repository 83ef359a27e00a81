// A call bound to the place it was proposed for (`Tool.target`, what tab tools use for the page a
// tab shows): named once when the model proposes the call, before the person is asked; carried on
// `approval_requested`, in the approval record and across a resume; handed back to the tool as
// `ctx.target` at its start, whatever the place has become meanwhile. Here the "page" is a variable
// the test changes while the card waits; e2e/extension-bound.spec.ts does it with a real tab.
import { describe, expect, it } from 'vitest';
import {
  Agent,
  AmbiError,
  ChatRunner,
  defineTool,
  MemoryConversationStore,
  MemoryToolCallJournal,
  scriptedEngine,
  type CallTarget,
  type RunEvent,
  type Tool,
} from '../../src/index.js';

/** A "browser tab": the page it shows now, and a tool that acts on it, bound to the page its call was proposed for. */
function tab() {
  const state = { page: 'A', asked: 0, ran: [] as Array<{ on: string; proposedFor: CallTarget | undefined }> };
  const stamp: Tool = {
    ...defineTool({
      name: 'stamp',
      description: 'Stamp the page',
      parameters: { type: 'object', properties: {} },
      idempotent: false,
      needsApproval: true,
      call: (_args, ctx) => {
        state.ran.push({ on: state.page, proposedFor: ctx.target });
        if (ctx.target?.page !== state.page) throw new AmbiError('tab_gone', `The tab left page ${String(ctx.target?.page)}`);
        return `stamped ${state.page}`;
      },
    }),
    target: () => {
      state.asked++;
      return { page: state.page };
    },
  };
  return { state, stamp };
}

async function untilApproval(events: AsyncIterable<RunEvent>): Promise<Extract<RunEvent, { type: 'approval_requested' }>> {
  for await (const event of events) if (event.type === 'approval_requested') return event;
  throw new Error('no approval was asked');
}

describe('a call bound to the place it was proposed for', () => {
  it('names the place on its card, and starts with it even though the place changed while the card waited', async () => {
    const { state, stamp } = tab();
    const agent = (await Agent.make(scriptedEngine([{ toolCalls: [{ id: 's-1', name: 'stamp', arguments: {} }] }, 'done']))).tool(stamp);
    const run = new ChatRunner().run(agent, 'Stamp it');
    const card = await untilApproval(run.events);
    expect(card.call.target).toEqual({ page: 'A' });
    state.page = 'B'; // the tab navigates while the person reads the card
    run.approve('s-1');
    const result = await run.result;
    expect(state.ran).toEqual([{ on: 'B', proposedFor: { page: 'A' } }]);
    expect(result.toolResults[0]).toMatchObject({ ok: false, error: { code: 'tab_gone' } });
    expect(state.asked).toBe(1);
  });

  it('a place unchanged: the call runs there', async () => {
    const { state, stamp } = tab();
    const agent = (await Agent.make(scriptedEngine([{ toolCalls: [{ id: 's-1', name: 'stamp', arguments: {} }] }, 'done']))).tool(stamp);
    const run = new ChatRunner().run(agent, 'Stamp it');
    await untilApproval(run.events);
    run.approve('s-1');
    expect((await run.result).toolResults[0]).toMatchObject({ ok: true, output: 'stamped A' });
    expect(state.ran).toEqual([{ on: 'A', proposedFor: { page: 'A' } }]);
  });

  it('a place that cannot be named (the tab is gone): the call ends unstarted with that code, and no card is shown', async () => {
    const { state, stamp } = tab();
    const gone: Tool = {
      ...stamp,
      target: () => {
        throw new AmbiError('tab_gone', 'Tab 7 is gone');
      },
    };
    const agent = (await Agent.make(scriptedEngine([{ toolCalls: [{ id: 's-1', name: 'stamp', arguments: {} }] }, 'done']))).tool(gone);
    const run = new ChatRunner().run(agent, 'Stamp it');
    const types: string[] = [];
    for await (const event of run.events) types.push(event.type);
    expect(types).not.toContain('approval_requested');
    expect((await run.result).toolResults[0]).toMatchObject({
      ok: false,
      attempts: 0,
      error: { code: 'tab_gone', message: expect.stringContaining('Tab 7 is gone') },
    });
    expect(state.ran).toEqual([]);
  });

  it('a resumed call keeps the place its approval record names, not the one shown when it is resumed', async () => {
    const { state, stamp } = tab();
    const stores = { conversations: new MemoryConversationStore(), journal: new MemoryToolCallJournal() };
    const agent = (await Agent.make(scriptedEngine([{ toolCalls: [{ id: 's-1', name: 'stamp', arguments: {} }] }, 'done']), stores)).tool(stamp);
    const runner = new ChatRunner();
    const first = runner.run(agent, 'Stamp it', { conversation: 'c' });
    await untilApproval(first.events);
    first.suspend();
    await first.result.catch(() => undefined);
    expect((await runner.pendingApprovals(agent, 'c'))[0]?.call.target).toEqual({ page: 'A' });

    state.page = 'B';
    const resumed = runner.resume(agent, 'c');
    const card = await untilApproval(resumed.events);
    expect(card.call.target).toEqual({ page: 'A' });
    resumed.approve('s-1');
    await resumed.result;
    expect(state.ran).toEqual([{ on: 'B', proposedFor: { page: 'A' } }]);
    expect(state.asked).toBe(1);
  });

  it('refuses a target that is not a function when the tool is registered', async () => {
    const { stamp } = tab();
    const agent = await Agent.make(scriptedEngine(['ok']));
    expect(() => agent.tool({ ...stamp, target: 'page A' as never })).toThrow(/target must be a function/);
  });
});
