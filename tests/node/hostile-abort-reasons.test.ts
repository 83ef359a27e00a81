// Issue 13 (item 23, in-process): a thrown value or abort reason that cannot even be printed ends the run, coded.
import { describe, expect, it } from 'vitest';
import { Agent, ChatRunner, defineTool, isAmbiError } from '../../src/index.js';
import { call, finish, gate, StepEngine, text } from '../support/engines.js';

const empty = { type: 'object', properties: {} } as const;
/** Neither cloneable nor printable: `String()` throws on it. */
const unprintable = () => Object.assign(Object.create(null) as object, { run() {} });

describe('values that cannot be printed', () => {
  it('abort(reason) with such a reason still ends the run with code aborted', async () => {
    const started = gate();
    const wait = defineTool({
      name: 'wait',
      description: 'x',
      parameters: empty,
      idempotent: true,
      call: (_a, ctx) => (started.open(), new Promise((_r, reject) => ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason)))),
    });
    const agent = (
      await Agent.make(
        new StepEngine([
          [call('w', 'wait'), finish('tool_calls')],
          [text('x'), finish()],
        ]),
      )
    ).tool(wait);
    const run = new ChatRunner().run(agent, 'go');
    await started.promise;
    run.abort(unprintable());
    const error = await run.result.catch((e: unknown) => e);
    expect(isAmbiError(error, 'aborted')).toBe(true);
    expect((error as Error).message).toMatch(/cannot be shown as text/);
  });

  it('a tool that throws one is crashed at once, and the run goes on', async () => {
    const boom = defineTool({
      name: 'boom',
      description: 'x',
      parameters: empty,
      idempotent: true,
      call: () => {
        throw unprintable();
      },
    });
    const agent = (
      await Agent.make(
        new StepEngine([
          [call('b', 'boom'), finish('tool_calls')],
          [text('ok'), finish()],
        ]),
      )
    ).tool(boom);
    const result = await new ChatRunner().run(agent, 'go').result;
    expect(result.text).toBe('ok');
    expect(result.toolResults).toMatchObject([{ id: 'b', ok: false, error: { code: 'crashed' }, attempts: 1 }]);
  });
});
