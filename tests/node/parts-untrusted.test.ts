// An image from an untrusted tool is untrusted like its text (issue 47): marked in 'mark' mode (an
// image can carry an injection), held in 'hold' mode (the model never receives its bytes), and
// read in quarantine where the engine can see it.
import { describe, expect, it } from 'vitest';
import { Agent, ChatRunner, defineTool, type Message, withParts } from '../../src/index.js';
import { PartsEngine, PNG, partsOf } from '../support/parts.js';

/** A web page's screenshot: someone else's pixels. */
const pageShot = (quarantine?: { output: Record<string, unknown>; instructions?: string }) =>
  defineTool({
    name: 'page_shot',
    description: 'A screenshot of a web page',
    parameters: { type: 'object' },
    readOnly: true,
    untrusted: true,
    ...(quarantine ? { quarantine } : {}),
    call: () => withParts({ title: 'Cheap flights' }, [{ type: 'image', image: PNG }]),
  });

const imagesIn = (messages: readonly Message[]) => messages.flatMap(partsOf);

describe("untrusted images, 'mark' mode", () => {
  it('the tool message that carries the image is marked; the next turn is exposed', async () => {
    const engine = new PartsEngine([{ calls: [{ id: 's1', name: 'page_shot' }] }, 'Seen.']);
    const agent = (await Agent.make(engine)).tool(pageShot());
    const run = new ChatRunner().run(agent, 'Look at the page');
    const events = [];
    for await (const event of run.events) events.push(event);
    const { messages } = await run.result;
    const tool = messages.find((m) => m.role === 'tool')!;
    expect(tool).toMatchObject({ untrusted: true, parts: [{ type: 'image', mediaType: 'image/png' }] });
    expect(imagesIn(engine.requests[1]!.messages)).toHaveLength(1);
    expect(events.find((e) => e.type === 'iteration_finished' && e.iteration === 2)).toMatchObject({
      untrusted: { sources: [{ callId: 's1', name: 'page_shot' }] },
    });
  });
});

describe("untrusted images, 'hold' mode", () => {
  it('the image is held with the output: no request carries it, the handle counts it, RunResult.held gives it to the app', async () => {
    const engine = new PartsEngine([{ calls: [{ id: 's1', name: 'page_shot' }] }, 'See $1.']);
    const agent = (await Agent.make(engine, { untrusted: 'hold' })).tool(pageShot());
    const result = await new ChatRunner().run(agent, 'Look at the page').result;
    for (const request of engine.requests) expect(imagesIn(request.messages)).toEqual([]);
    const tool = result.messages.find((m) => m.role === 'tool')!;
    expect(JSON.parse(String(tool.content))).toEqual({ held: '$1', from: 'page_shot', type: 'object', length: 25, parts: 1 });
    expect(result.held).toEqual([
      { id: '$1', from: 'page_shot', value: { title: 'Cheap flights' }, parts: [{ type: 'image', image: expect.any(Blob), mediaType: 'image/png' }] },
    ]);
  });

  it('inspect_held reads the held image in quarantine where the engine sees images; the model gets the checked answer only', async () => {
    const engine = new PartsEngine([
      { calls: [{ id: 's1', name: 'page_shot' }] },
      { calls: [{ id: 'i1', name: 'inspect_held', arguments: { value: { $held: '$1' }, instructions: 'Is there a price?', output: { type: 'boolean' } } }] },
      'true',
      'It shows a price.',
    ]);
    const agent = (await Agent.make(engine, { untrusted: 'hold' })).tool(pageShot());
    const result = await new ChatRunner().run(agent, 'Does the page show a price?').result;
    const quarantine = engine.requests[2]!;
    expect(quarantine.tools).toEqual([]);
    expect(imagesIn(quarantine.messages)).toEqual([{ type: 'image', image: expect.any(Blob), mediaType: 'image/png' }]);
    expect(result.toolResults[1]).toMatchObject({ name: 'inspect_held', ok: true, output: true });
    expect(imagesIn(engine.requests[3]!.messages)).toEqual([]);
  });
});

describe('quarantined tools with images', () => {
  it('the quarantine request reads the image; the run model reads the closed answer, with no parts', async () => {
    const engine = new PartsEngine([{ calls: [{ id: 's1', name: 'page_shot' }] }, '{"cheap":true}', 'Cheap.']);
    const agent = (await Agent.make(engine)).tool(
      pageShot({ output: { type: 'object', properties: { cheap: { type: 'boolean' } }, required: ['cheap'], additionalProperties: false } }),
    );
    const result = await new ChatRunner().run(agent, 'Is it cheap?').result;
    expect(imagesIn(engine.requests[1]!.messages)).toHaveLength(1);
    expect(result.toolResults[0]).toEqual(expect.objectContaining({ ok: true, output: { cheap: true } }));
    expect(result.toolResults[0]).not.toHaveProperty('parts');
    const tool = engine.requests[2]!.messages.at(-1)!;
    expect(tool).toMatchObject({ role: 'tool', content: '{"ok":true,"output":{"cheap":true}}' });
    expect(partsOf(tool)).toEqual([]);
  });

  it('an engine that sees no images reads the quarantined output with the image named, not shown', async () => {
    const engine = new PartsEngine([{ calls: [{ id: 's1', name: 'page_shot' }] }, '{"cheap":false}', 'Not cheap.'], {});
    const agent = (await Agent.make(engine)).tool(
      pageShot({ output: { type: 'object', properties: { cheap: { type: 'boolean' } }, required: ['cheap'], additionalProperties: false } }),
    );
    await new ChatRunner().run(agent, 'Is it cheap?').result;
    const data = engine.requests[1]!.messages.at(-1)!;
    expect(data.content).toEqual([{ type: 'text', text: '{"title":"Cheap flights"}\n[image (image/png, 68 bytes): not shown, this model cannot read it]' }]);
  });
});
