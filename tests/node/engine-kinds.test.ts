// Engines as a table from kind to factory: the built-in kinds, an app's own, and configs no
// factory builds (coded `unknown_engine`, naming the kinds there are).
import { describe, expect, it } from 'vitest';
import { Agent, ChatRunner, type Engine, isAmbiError, scriptedEngine } from '../../src/index.js';
import { builtInEngines, createEngine, type EngineFactories, standardExtensions, type ExtensionLoader } from '../../src/extend/index.js';

/** An engine kind of an app's own: it answers with the config's greeting and the person's words. */
const echoKind: EngineFactories = {
  echo: (config: { kind: 'echo'; greeting: string }): Engine => ({
    nativeTools: true,
    info: { provider: 'echo', model: 'v1' },
    async *stream(request) {
      yield { type: 'text', text: `${config.greeting}, ${String(request.messages.at(-1)?.content)}` };
      yield { type: 'finish', reason: 'stop' };
    },
  }),
};

const failure = async (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

describe('engine kinds', () => {
  it("builds a config of the app's own kind with its factory, the built-in kinds still there", async () => {
    const agent = await Agent.make({ kind: 'echo', greeting: 'Hello' }, { engines: echoKind });
    expect((await new ChatRunner().run(agent, 'Ada').result).text).toBe('Hello, Ada');
    expect(agent.engineInfo).toEqual({ provider: 'echo', model: 'v1' });
    const scripted = await Agent.make(scriptedEngine(['still here']), { engines: echoKind });
    expect((await new ChatRunner().run(scripted, 'Hi').result).text).toBe('still here');
  });

  it('fails a config of an unknown kind with unknown_engine, naming the kinds it has', async () => {
    const error = await failure(Agent.make({ kind: 'anthropic', model: 'claude' }, { engines: echoKind }));
    expect(isAmbiError(error, 'unknown_engine')).toBe(true);
    expect((error as Error).message).toBe(
      'No engine for kind "anthropic" in this runner; its kinds: openai-compatible, scripted, replay, prompt-api, local, echo',
    );
  });

  it('names nothing by a kind that is a property of every object (__proto__, toString, constructor)', async () => {
    for (const kind of ['__proto__', 'toString', 'constructor', 'hasOwnProperty']) {
      const error = await failure(Agent.make(JSON.parse(`{"kind":${JSON.stringify(kind)}}`)));
      expect(isAmbiError(error, 'unknown_engine'), kind).toBe(true);
    }
    const missing = await failure(Agent.make({} as never));
    expect((missing as Error).message).toMatch(/^No engine for kind no kind \(none given\)/);
  });

  it('fails with invalid_engine_config when a factory throws or gives no Engine, naming the kind', async () => {
    const engines: EngineFactories = {
      throws: () => {
        throw new Error('no key given');
      },
      nothing: () => ({}) as Engine,
    };
    const thrown = await failure(Agent.make({ kind: 'throws' }, { engines }));
    expect(thrown).toMatchObject({ code: 'invalid_engine_config', message: 'The "throws" engine could not be built: no key given' });
    expect(await failure(Agent.make({ kind: 'nothing' }, { engines }))).toMatchObject({ code: 'invalid_engine_config' });
    await expect(Agent.make({ kind: 'x' }, { engines: { x: 'not a function' } as never })).rejects.toMatchObject({
      code: 'invalid_engine_config',
      message: 'The engine factory for kind "x" is not a function',
    });
  });

  it('lets an app replace a built-in kind by naming it', async () => {
    const engines: EngineFactories = { scripted: echoKind.echo!.bind(null) as never };
    const agent = await Agent.make({ kind: 'scripted', greeting: 'Replaced' } as never, { engines });
    expect((await new ChatRunner().run(agent, 'you').result).text).toBe('Replaced, you');
  });

  it('keeps createEngine for the built-in kinds, and refuses others with unknown_engine', () => {
    expect(createEngine(scriptedEngine(['x'])).nativeTools).toBe(true);
    expect(() => createEngine({ kind: 'echo' })).toThrow(expect.objectContaining({ code: 'unknown_engine' }));
    expect(Object.keys(builtInEngines).sort()).toEqual(['local', 'openai-compatible', 'prompt-api', 'replay', 'scripted']);
  });

  it("counts a standard extension listed among an agent's own once, and runs an own one after them", async () => {
    const seen: string[] = [];
    const mine: ExtensionLoader = { name: 'mine', wanted: () => true, load: async () => () => ({ name: 'mine', beforeTurn: () => void seen.push('turn') }) };
    const agent = await Agent.make(scriptedEngine(['ok']), { extensions: [...standardExtensions, mine] });
    expect(agent.extensions).toEqual([...standardExtensions, mine]);
    await new ChatRunner().run(agent, 'Hi').result;
    expect(seen).toEqual(['turn']);
  });
});
