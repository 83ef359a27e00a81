// A typed answer that cannot be checked at all, in-process: a Standard Schema whose validate throws.
// A coded AmbiError (what a shared runner's schema throws once its page went away: `tab_gone`)
// ends the run, the answer kept, no request spent; any other throw is the answer's problem, asked again.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent, AmbiError, ChatRunner, isAmbiError, MemoryConversationStore, type StandardSchemaV1, scriptedEngine } from '../../src/index.js';
import { collect } from '../support/run-events.js';

const said = z.object({ said: z.string() });

/** `said`, whose validate throws `error` on its first `times` answers, then checks as zod does. */
function throwing(error: unknown, times = Number.POSITIVE_INFINITY): StandardSchemaV1 {
  let asked = 0;
  return {
    '~standard': {
      ...said['~standard'],
      validate: (value) => {
        if (asked++ < times) throw error;
        return said['~standard'].validate(value);
      },
    },
  } as StandardSchemaV1;
}

describe('run(input, { output }): a Standard Schema whose validate throws', () => {
  it('a coded AmbiError ends the run with it (run_failed), the answer kept, no further model request', async () => {
    const conversations = new MemoryConversationStore();
    const agent = await Agent.make(scriptedEngine(['{"said":"hi"}', '{"said":"again"}']), { conversations, record: true });
    const gone = new AmbiError('tab_gone', 'The page that held this schema went away');
    const run = new ChatRunner().run(agent, 'say hi', { output: throwing(gone), conversation: 'c' });
    const events = await collect(run);
    const error = await run.result.catch((e: unknown) => e);
    expect(isAmbiError(error, 'tab_gone')).toBe(true);
    expect((error as Error).message).toBe('The page that held this schema went away');
    expect(events.at(-1)).toMatchObject({ type: 'run_failed', error: { code: 'tab_gone' } });
    expect(agent.cassette().interactions).toHaveLength(1);
    expect((await conversations.load('c')).map((m) => m.role === 'assistant' && m.content)).toContain('{"said":"hi"}');
  });

  it('any other throw is a problem of the answer: the model is asked again, and the next answer passes', async () => {
    const agent = await Agent.make(scriptedEngine(['{"said":"hi"}', '{"said":"again"}']), { record: true });
    const result = await new ChatRunner().run(agent, 'say hi', { output: throwing(new TypeError('boom'), 1) }).result;
    expect(result.output).toEqual({ said: 'again' });
    const { interactions } = agent.cassette();
    expect(interactions).toHaveLength(2);
    expect(JSON.stringify(interactions[1]!.request.messages)).toContain('the answer could not be validated: boom');
  });
});
