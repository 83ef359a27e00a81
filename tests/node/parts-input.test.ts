// A run's input beyond text (issue 47): text, image and file parts into a run, its conversation and
// the request the engine gets; what is refused (hostile parts) and why, with a stable code.
import { describe, expect, it } from 'vitest';
import { Agent, ChatRunner, isAmbiError, MemoryConversationStore, type ContentPart, type RunInput, scriptedEngine } from '../../src/index.js';
import { collect } from '../support/run-events.js';
import { JPEG, JPEG_BASE64, PartsEngine, PDF, PNG, PNG_BASE64, bytesOf, partsOf } from '../support/parts.js';

async function runOn(input: RunInput, engine = new PartsEngine(['Seen.']), options: Parameters<typeof Agent.make>[1] = {}) {
  const conversations = new MemoryConversationStore();
  const agent = await Agent.make(engine, { conversations, ...options });
  const run = new ChatRunner().run(agent, input, { conversation: 'c' });
  const events = await collect(run);
  const result = await run.result.catch((error: unknown) => error);
  return { engine, events, result, stored: await conversations.load('c') };
}

describe('parts into a run', () => {
  it('takes text, an image as bytes and a file: the user message holds them, their bytes as Blobs, and the request carries them', async () => {
    const input: ContentPart[] = [
      { type: 'text', text: 'What is on this?' },
      { type: 'image', image: PNG },
      { type: 'file', data: PDF.buffer.slice(0) as ArrayBuffer, mediaType: 'application/pdf', filename: 'report.pdf' },
    ];
    const { engine, events, result, stored } = await runOn(input);
    expect(result).toMatchObject({ text: 'Seen.' });
    const user = engine.requests[0]!.messages.at(-1)!;
    expect(user.role).toBe('user');
    expect(user.content).toEqual([
      { type: 'text', text: 'What is on this?' },
      { type: 'image', image: expect.any(Blob), mediaType: 'image/png' },
      { type: 'file', data: expect.any(Blob), mediaType: 'application/pdf', filename: 'report.pdf' },
    ]);
    const [image, file] = partsOf(user) as Array<{ image?: Blob; data?: Blob }>;
    expect(await bytesOf(image!.image)).toEqual(PNG);
    expect(await bytesOf(file!.data)).toEqual(PDF);
    // Stored as given to the engine; run_started says the text.
    expect(partsOf(stored[0])).toHaveLength(2);
    expect(events[0]).toMatchObject({ type: 'run_started', input: 'What is on this?' });
  });

  it('takes a Blob as it is (no copy), a Uint8Array view at an offset, and a data: URL', async () => {
    const blob = new Blob([JPEG], { type: 'image/jpeg' });
    const padded = new Uint8Array(PNG.length + 3);
    padded.set(PNG, 3);
    const { engine } = await runOn([
      { type: 'image', image: blob },
      { type: 'image', image: padded.subarray(3) },
      { type: 'image', image: `data:image/png;base64,${PNG_BASE64}` },
    ]);
    const parts = partsOf(engine.requests[0]!.messages.at(-1)) as Array<{ image: Blob; mediaType: string }>;
    expect(parts[0]!.image).toBe(blob);
    expect(await bytesOf(parts[1]!.image)).toEqual(PNG);
    expect(await bytesOf(parts[2]!.image)).toEqual(PNG);
    expect(parts.map((part) => part.mediaType)).toEqual(['image/jpeg', 'image/png', 'image/png']);
  });

  it('keeps an https: image as its URL, never fetched by the runner', async () => {
    const { engine } = await runOn([{ type: 'image', image: 'https://example.com/cat.png', mediaType: 'image/png' }]);
    expect(partsOf(engine.requests[0]!.messages.at(-1))).toEqual([{ type: 'image', image: 'https://example.com/cat.png', mediaType: 'image/png' }]);
  });

  it('a string input stays a string', async () => {
    const { engine } = await runOn('Just words');
    expect(engine.requests[0]!.messages.at(-1)).toEqual({ role: 'user', content: 'Just words' });
  });

  it('the same run through a scripted engine (its config, as a worker gets it) stores the parts', async () => {
    const conversations = new MemoryConversationStore();
    const agent = await Agent.make(scriptedEngine(['Fine.']), { conversations });
    await new ChatRunner().run(agent, [{ type: 'image', image: PNG }], { conversation: 'c' }).result;
    expect(partsOf((await conversations.load('c'))[0])).toEqual([{ type: 'image', image: expect.any(Blob), mediaType: 'image/png' }]);
  });
});

describe('hostile parts: refused with invalid_content, before anything is stored or sent', () => {
  const refusals: Array<[string, unknown]> = [
    ['a data: URL that says PNG and holds HTML', [{ type: 'image', image: `data:image/png;base64,${btoa('<script>alert(1)</script>')}` }]],
    ['a 0-byte image', [{ type: 'image', image: new Uint8Array(0) }]],
    ['a 0-byte Blob', [{ type: 'image', image: new Blob([]) }]],
    ['a javascript: URL', [{ type: 'image', image: 'javascript:alert(1)' }]],
    ['a file: URL', [{ type: 'file', data: 'file:///etc/passwd', mediaType: 'text/plain' }]],
    ['an http: URL', [{ type: 'image', image: 'http://example.com/a.png' }]],
    ['a blob: URL', [{ type: 'image', image: 'blob:https://example.com/1234' }]],
    ['a string that is no URL', [{ type: 'image', image: PNG_BASE64 }]],
    ['an unknown part type', [{ type: 'video', data: PNG }]],
    ['a part whose type is inherited', [Object.create({ type: 'text', text: 'hi' })]],
    ['a part whose only type is an own __proto__ key', JSON.parse('[{"__proto__": {"type": "text"}, "text": "hi"}]')],
    ['a file without a media type', [{ type: 'file', data: PDF }]],
    ['a file that says PDF and is not one', [{ type: 'file', data: PNG, mediaType: 'application/pdf' }]],
    [
      'an SVG image (text, no format a model takes)',
      [{ type: 'image', image: new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"/>'), mediaType: 'image/svg+xml' }],
    ],
    ['an image with a media type that is no image', [{ type: 'image', image: PNG, mediaType: 'text/html' }]],
    ['a filename with a control character', [{ type: 'file', data: PDF, mediaType: 'application/pdf', filename: 'a\u0000.pdf' }]],
    ['a text part whose text is no string', [{ type: 'text', text: 42 }]],
    ['a part that is null', [null]],
    ['an empty list of parts', []],
    ['more parts than a message holds', Array.from({ length: 1001 }, () => ({ type: 'text', text: 'x' }))],
    ['a data: URL with characters base64 has not', [{ type: 'image', image: 'data:image/png;base64,@@@@' }]],
  ];
  it.each(refusals)('%s', async (_, input) => {
    const { engine, events, result, stored } = await runOn(input as RunInput);
    expect(isAmbiError(result, 'invalid_content')).toBe(true);
    expect(engine.requests).toHaveLength(0);
    expect(stored).toEqual([]);
    expect(events.at(-1)).toMatchObject({ type: 'run_failed', error: { code: 'invalid_content' } });
  });

  it('a data: URL that lies about its image type is taken for what its bytes are', async () => {
    const { engine } = await runOn([{ type: 'image', image: `data:image/png;base64,${JPEG_BASE64}` }]);
    const [part] = partsOf(engine.requests[0]!.messages.at(-1)) as Array<{ image: Blob; mediaType: string }>;
    expect(part!.mediaType).toBe('image/jpeg');
    expect(part!.image.type).toBe('image/jpeg');
  });

  it('a part own __proto__ key is read as data, never as a prototype, and other keys are dropped', async () => {
    const input = JSON.parse(
      `[{"type": "image", "image": "data:image/png;base64,${PNG_BASE64}", "__proto__": {"polluted": true}, "providerOptions": {"x": 1}}]`,
    );
    const { engine } = await runOn(input);
    const [part] = partsOf(engine.requests[0]!.messages.at(-1)) as Array<Record<string, unknown>>;
    expect(Object.keys(part!).sort()).toEqual(['image', 'mediaType', 'type']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('names the part that is refused', async () => {
    const { result } = await runOn([
      { type: 'text', text: 'ok' },
      { type: 'image', image: 'javascript:alert(1)' },
    ]);
    expect(result).toMatchObject({ code: 'invalid_content', part: 'part 2 (image)', message: expect.stringContaining('javascript: URL') });
  });
});
