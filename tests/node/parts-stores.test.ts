// Parts where they are kept (issue 47): the memory store keeps bytes as Blobs (a message made by
// hand with an ArrayBuffer or a base64 data: URL too) and refuses what is no part; a cassette names
// each image by its hash with the bytes beside, once, and a replay compares by hash.
import { describe, expect, it } from 'vitest';
import { Agent, ChatRunner, defineTool, MemoryConversationStore, replayEngine, scriptedEngine, withParts } from '../../src/index.js';
import { bytesOf, JPEG, PNG, PNG_BASE64, partsOf } from '../support/parts.js';

describe('the memory conversation store', () => {
  it('keeps bytes as Blobs: an ArrayBuffer and a base64 data: URL given by hand become Blobs of their type', async () => {
    const store = new MemoryConversationStore();
    await store.append('c', [
      {
        role: 'user',
        content: [
          { type: 'image', image: PNG.buffer.slice(0) as ArrayBuffer, mediaType: 'image/png' },
          { type: 'file', data: `data:text/plain;base64,${btoa('hello')}`, mediaType: 'text/plain', filename: 'a.txt' },
        ],
      },
    ]);
    const [image, file] = partsOf((await store.load('c'))[0]) as Array<{ image?: Blob; data?: Blob }>;
    expect(image!.image).toBeInstanceOf(Blob);
    expect(await bytesOf(image!.image)).toEqual(PNG);
    expect(new TextDecoder().decode(await bytesOf(file!.data))).toBe('hello');
  });

  it('refuses a message whose parts are not parts (storage_invalid), and stores nothing of the batch', async () => {
    const store = new MemoryConversationStore();
    for (const content of [[{ type: 'image', image: 42 }], [{ type: 'video' }], [null]]) {
      await expect(store.append('c', [{ role: 'user', content } as never])).rejects.toMatchObject({ code: 'storage_invalid' });
    }
    await expect(store.append('c', [{ role: 'system', content: [{ type: 'text', text: 'x' }] } as never])).rejects.toMatchObject({ code: 'storage_invalid' });
    expect(await store.load('c')).toEqual([]);
  });
});

const shot = (image: Uint8Array) =>
  defineTool({
    name: 'shot',
    description: 'A screenshot',
    parameters: { type: 'object' },
    readOnly: true,
    call: () => withParts({ ok: true }, [{ type: 'image', image }]),
  });

async function recorded(image: Uint8Array) {
  const agent = await Agent.make(scriptedEngine([{ toolCalls: [{ id: 'x', name: 'shot', arguments: {} }] }, 'Two pixels.']), { record: true });
  agent.tool(shot(image));
  await new ChatRunner().run(agent, [
    { type: 'text', text: 'Compare' },
    { type: 'image', image: `data:image/png;base64,${PNG_BASE64}` },
  ]).result;
  return agent.cassette();
}

describe('cassettes', () => {
  it('name each image by its hash in the requests and keep its bytes once, beside them', async () => {
    const cassette = await recorded(PNG);
    const refs = Object.keys(cassette.parts ?? {});
    expect(refs).toHaveLength(1);
    expect(refs[0]).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(cassette.parts![refs[0]!]).toEqual({ mediaType: 'image/png', data: PNG_BASE64 });
    const [first, second] = cassette.interactions;
    expect(first!.request.messages[0]!.content).toEqual([
      { type: 'text', text: 'Compare' },
      { type: 'image', image: refs[0], mediaType: 'image/png' },
    ]);
    expect(second!.request.messages.at(-1)).toMatchObject({ role: 'tool', parts: [{ type: 'image', image: refs[0], mediaType: 'image/png' }] });
    // Plain JSON: what a test writes to a file next to it.
    expect(JSON.parse(JSON.stringify(cassette))).toEqual(cassette);
  });

  it('replay the same run, parts compared by hash; another image is a replay_mismatch naming where', async () => {
    const cassette = JSON.parse(JSON.stringify(await recorded(PNG)));
    const same = (await Agent.make(replayEngine(cassette))).tool(shot(PNG));
    const input = [
      { type: 'text' as const, text: 'Compare' },
      { type: 'image' as const, image: PNG },
    ];
    expect((await new ChatRunner().run(same, input).result).text).toBe('Two pixels.');
    const other = (await Agent.make(replayEngine(cassette))).tool(shot(JPEG));
    await expect(new ChatRunner().run(other, input).result).rejects.toMatchObject({
      code: 'replay_mismatch',
      message: expect.stringContaining('/messages/2/parts/0/image'),
    });
  });

  it('refuse a cassette whose parts are not named by a hash', async () => {
    const cassette = JSON.parse(JSON.stringify(await recorded(PNG)));
    cassette.parts = { 'not-a-hash': { mediaType: 'image/png', data: PNG_BASE64 } };
    await expect(new ChatRunner().run(await Agent.make(replayEngine(cassette)), 'x').result).rejects.toMatchObject({ code: 'invalid_cassette' });
  });
});
