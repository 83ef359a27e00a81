// promptApiEngine in Chromium, on a stand-in shaped as the Prompt API's specification (headless
// Chromium has no built-in model), in-process on the page and through a runner worker (where the
// browser offers `LanguageModel` to documents only, so the requests run on the page); and on the
// real `LanguageModel` where `availability()` says it is there.
import { afterEach, describe, expect, it } from 'vitest';
import {
  Agent,
  ChatRunner,
  createWorkerRunner,
  defineTool,
  isAmbiError,
  promptApiEngine,
  type Run,
  type RunEvent,
  type WorkerRunner,
} from '../../src/index.js';
import { installLanguageModel } from '../support/language-model-stand-in.js';
import { collect } from '../support/run-events.js';

const cleanup: Array<() => void> = [];
afterEach(() => {
  for (const undo of cleanup.splice(0)) undo();
});
const standIn = (options: Parameters<typeof installLanguageModel>[0]) => {
  const installed = installLanguageModel(options);
  cleanup.push(installed.remove);
  return installed.log;
};

const added: string[] = [];
const addNote = defineTool({
  name: 'add_note',
  description: 'Add a note',
  parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'], additionalProperties: false },
  idempotent: false,
  needsApproval: true,
  call: ({ text }) => {
    added.push(text);
    return 'added';
  },
});

/** A run of `input` on the built-in model, in-process on the page or through a runner worker. */
type Realm = 'in-process' | 'runner worker';
async function start(realm: Realm, input: string, options: Parameters<ChatRunner['run']>[2] = {}): Promise<Run> {
  if (realm === 'in-process') {
    const agent = (await Agent.make(promptApiEngine({ languages: ['en'] }), { preamble: 'You keep notes.' })).tool(addNote);
    return new ChatRunner().run(agent, input, options);
  }
  const runner: WorkerRunner = createWorkerRunner({ engine: promptApiEngine({ languages: ['en'] }), preamble: 'You keep notes.' }).tool(addNote);
  cleanup.push(() => runner.close());
  return runner.run(input, options);
}

const ofType = <T extends RunEvent['type']>(events: RunEvent[], type: T) => events.filter((e): e is Extract<RunEvent, { type: T }> => e.type === type);

describe.each(['in-process', 'runner worker'] as const)('promptApiEngine (%s)', (realm) => {
  it("gets a tool call through responseConstraint and runs it under the tool's policy (approval), never through the browser's own tool loop", async () => {
    added.length = 0;
    const log = standIn({
      availability: 'available',
      replies: [['{"calls":[{"name":"add_note",', '"arguments":{"text":"buy milk"}}]}'], ['{"answer":"Added: buy milk."}']],
    });
    const run = await start(realm, 'Note: buy milk');
    const events = await collect(run, (event) => {
      if (event.type === 'approval_requested') run.approve(event.call.id);
    });
    const result = await run.result;
    expect(result.text).toBe('Added: buy milk.');
    expect(result.toolResults).toMatchObject([{ name: 'add_note', ok: true, output: 'added' }]);
    expect(added).toEqual(['buy milk']);
    expect(ofType(events, 'approval_requested')).toHaveLength(1);
    // The browser never got the tools to run itself, only their call shapes as a constraint.
    expect(log.created.every((options) => !('tools' in options) || options.tools === undefined)).toBe(true);
    const constraint = log.prompts[0]!.responseConstraint as { anyOf: Array<{ properties: Record<string, any> }> };
    expect(constraint.anyOf[0]!.properties.calls.items.properties.name).toEqual({ type: 'string', enum: ['add_note'] });
    expect(constraint.anyOf[1]!.properties.answer).toEqual({ type: 'string' });
    // The session opened with the preamble and the tools taught; the call's result came back as the prompt.
    expect(log.created[0]!.initialPrompts).toEqual([expect.objectContaining({ role: 'system', content: expect.stringContaining('You keep notes.') })]);
    expect(log.created[0]!.expectedInputs).toEqual([{ type: 'text', languages: ['en'] }]);
    expect(log.prompts[1]!.input).toEqual([{ role: 'user', content: expect.stringMatching(/^Result of add_note \(call call_[0-9a-f]+\): /) }]);
    expect(log.destroyed).toBe(2);
  });

  it('gets a typed answer through responseConstraint: the schema itself, the answer its JSON', async () => {
    const schema = {
      type: 'object',
      properties: { city: { type: 'string' }, north: { type: 'boolean' } },
      required: ['city', 'north'],
      additionalProperties: false,
    } as const;
    const log = standIn({ availability: 'available', replies: [['{"city":"Oslo",', '"north":true}']] });
    const run = await start(realm, 'Is Oslo north of Rome?', { output: schema, toolChoice: 'none' });
    const result = await run.result;
    expect(result.output).toEqual({ city: 'Oslo', north: true });
    expect(log.prompts[0]!.responseConstraint).toEqual(schema);
  });

  it('streams a plain answer as it comes when there is nothing to constrain', async () => {
    standIn({ availability: 'available', replies: [['Bonjour', ' !']] });
    const events = await collect(await start(realm, 'Say hello in French', { toolChoice: 'none' }));
    expect(
      ofType(events, 'text_delta')
        .map((e) => e.text)
        .join(''),
    ).toBe('Bonjour !');
  });

  it('fails engine_unavailable where availability() says unavailable, and creates no session', async () => {
    const log = standIn({ availability: 'unavailable' });
    const error = await (await start(realm, 'Hi')).result.catch((e: unknown) => e);
    expect(isAmbiError(error, 'engine_unavailable')).toBe(true);
    expect((error as Error).message).toContain('"unavailable"');
    expect(log.created).toEqual([]);
  });

  it('reports a model still downloading as model_download events, then answers', async () => {
    standIn({ availability: 'downloadable', progress: [0, 0.5, 1], replies: [['Ready.']] });
    const events = await collect(await start(realm, 'Hi', { toolChoice: 'none' }));
    expect(ofType(events, 'model_download').map(({ loaded, total }) => [loaded, total])).toEqual([
      [0, 1],
      [0.5, 1],
      [1, 1],
    ]);
    const types = events.map((e) => e.type);
    expect(types.lastIndexOf('model_download')).toBeLessThan(types.indexOf('text_delta'));
    expect(events.at(-1)).toMatchObject({ type: 'run_finished', result: { text: 'Ready.' } });
  });

  it('aborts a prompt mid-reply: the run ends aborted and the session is destroyed', async () => {
    const log = standIn({ availability: 'available', replies: [['Once upon']], holdReply: 0 });
    const run = await start(realm, 'Tell me a story', { toolChoice: 'none' });
    for await (const event of run.events) if (event.type === 'text_delta') run.abort('enough');
    await expect(run.result).rejects.toMatchObject({ code: 'aborted' });
    await expect.poll(() => log.destroyed).toBe(1);
  });

  it('fails malformed_stream, not a silent answer, when the reply is not the JSON its constraint asks for', async () => {
    standIn({ availability: 'available', replies: [['{"calls":[{"name":"add_no']] });
    const error = await (await start(realm, 'Note: x')).result.catch((e: unknown) => e);
    expect(isAmbiError(error, 'malformed_stream')).toBe(true);
  });
});

describe("Chrome's real built-in model", () => {
  it('answers where availability() says it is there, and otherwise fails engine_unavailable', async () => {
    const model = (globalThis as { LanguageModel?: { availability(o?: unknown): Promise<string> } }).LanguageModel;
    const availability = model
      ? await model.availability({ expectedInputs: [{ type: 'text', languages: ['en'] }], expectedOutputs: [{ type: 'text', languages: ['en'] }] })
      : 'absent';
    const agent = await Agent.make(promptApiEngine());
    const outcome = await new ChatRunner().run(agent, 'Reply with the single word: yes', { toolChoice: 'none' }).result.then(
      (result) => ({ ok: true as const, result }),
      (error: unknown) => ({ ok: false as const, error }),
    );
    if (availability === 'available') {
      expect(outcome.ok && outcome.result.text.length > 0).toBe(true);
    } else {
      // Headless Chromium: no model here (or none to download without a person's click).
      expect(outcome.ok ? 'answered' : (outcome.error as { code?: string }).code).toBe('engine_unavailable');
    }
  });
});
