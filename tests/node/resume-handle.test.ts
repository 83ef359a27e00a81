// A call that started, noted what it left running (a handle) and was cut off (its page closed): the
// resume reads its one record and lets it go on with that handle, neither asked again nor
// journalled again, with the arguments the person approved it with.
import { describe, expect, it } from 'vitest';
import { Agent, ChatRunner, defineTool, scriptedEngine } from '../../src/index.js';
import type { CallHandle } from '../../src/extend/index.js';
import { sharedStores } from '../support/crashable-stores.js';
import { collect } from '../support/run-events.js';

const server = 'https://tasks.example/mcp';

/** A tool that notes a task on its first call and waits for the abort; called with the task, it finishes it. */
function followed(seen: { note: string; handle: CallHandle | undefined }[]) {
  return defineTool({
    name: 'export',
    description: 'x',
    parameters: { type: 'object', properties: { note: { type: 'string' } }, required: ['note'], additionalProperties: false },
    idempotent: false,
    needsApproval: true,
    call: async ({ note }, ctx) => {
      seen.push({ note, handle: ctx.handle });
      if (ctx.handle) return `followed ${ctx.handle.kind === 'mcp_task' ? ctx.handle.taskId : '?'} for ${note}`;
      await ctx.noteHandle?.({ kind: 'mcp_task', server, taskId: 't-1' });
      return new Promise<string>((_, reject) => ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason)));
    },
  });
}

describe('resume of a call that left something running', () => {
  it('goes on with its handle and the edited arguments it was approved with: not asked again, its record finished once', async () => {
    const stores = sharedStores();
    const page = stores.page();
    const seen: { note: string; handle: CallHandle | undefined }[] = [];
    const engine = scriptedEngine([{ toolCalls: [{ id: 'x', name: 'export', arguments: { note: 'as proposed' } }] }]);
    const first = (await Agent.make(engine, page)).tool(followed(seen));
    const run = new ChatRunner().run(first, 'export it', { conversation: 'c' });
    run.result.catch(() => {});
    for await (const event of run.events) {
      if (event.type === 'approval_requested') run.approve(event.call.id, { arguments: { note: 'as edited' } });
      if (event.type === 'tool_started') break;
    }
    const { journal } = stores;
    await expect.poll(async () => (await journal.listByConversation('c'))[0]?.handle).toBeDefined();
    // The tab closes: nothing of it reaches the stores any more.
    page.crash();
    run.abort();
    const key = (await journal.listByConversation('c'))[0]!.idempotencyKey;
    expect(await journal.get(key)).toMatchObject({ state: 'started', handle: { kind: 'mcp_task', taskId: 't-1' } });

    const agent = (await Agent.make(scriptedEngine(['Exported.']), { conversations: stores.conversations, journal })).tool(followed(seen));
    const runner = new ChatRunner();
    const resumed = runner.resume(agent, 'c');
    const events = await collect(resumed);
    const result = await resumed.result;
    expect(events.some((e) => e.type === 'approval_requested')).toBe(false);
    expect(seen).toEqual([
      { note: 'as edited', handle: undefined },
      { note: 'as edited', handle: { kind: 'mcp_task', server, taskId: 't-1' } },
    ]);
    expect(result.toolResults).toMatchObject([{ id: 'x', ok: true, output: 'followed t-1 for as edited', editedArguments: { note: 'as edited' } }]);
    expect(await journal.get(key)).toMatchObject({ state: 'succeeded', handle: { taskId: 't-1' } });
  });
});
