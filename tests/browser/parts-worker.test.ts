// Parts through the WorkerRunner on IndexedDB, in Chromium (issue 47): each part kind from the page
// into the runner worker and into the raw request body a model server reads; a page tool's image
// (drawn on a canvas) crossing to the worker and to the model; the Blobs stored and back after a
// reload; refusals on the page before anything crosses.
import { afterEach, describe, expect, inject, it } from 'vitest';
import { createWorkerRunner, defineTool, IndexedDbConversationStore, isAmbiError, openAICompatible, type WorkerRunner, withParts } from '../../src/index.js';
import { freshDatabases } from '../support/fresh-databases.js';
import { JPEG, PDF, PNG, PNG_BASE64 } from '../support/parts.js';

const databases = freshDatabases('parts');
const opened: WorkerRunner[] = [];
afterEach(async () => {
  for (const runner of opened.splice(0)) runner.close();
  await databases.deleteAll();
});

const origin = inject('docsModelOrigin');
const base64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));

/** A runner on the docs model server (it calls the first tool offered once, then says "Done."), its session fresh. */
function runnerOn(database: string, options: { accepts?: { image?: boolean; file?: boolean } } = {}) {
  const session = `parts-${crypto.randomUUID()}`;
  const runner = createWorkerRunner({
    engine: openAICompatible({ baseURL: `${origin}/s/${session}/v1`, model: 'm', accepts: options.accepts ?? { image: true, file: true } }),
    database,
  });
  opened.push(runner);
  const bodies = async (): Promise<string[]> => (await fetch(`${origin}/s/${session}/bodies`)).json();
  return { runner, bodies };
}

/** A page tool that draws a note on a canvas and returns it as a PNG beside its output. */
const drawNote = defineTool({
  name: 'draw_note',
  description: 'Draws the note as an image',
  parameters: { type: 'object' },
  readOnly: true,
  call: async () => {
    const canvas = new OffscreenCanvas(40, 20);
    const context = canvas.getContext('2d')!;
    context.fillStyle = '#c00';
    context.fillRect(0, 0, 40, 20);
    return withParts({ drawn: true }, [{ type: 'image', image: await canvas.convertToBlob({ type: 'image/png' }) }]);
  },
});

describe('parts through the WorkerRunner', () => {
  it('a Blob, an ArrayBuffer, a data: URL and a PDF reach the raw body; a page tool image crosses to the model', async () => {
    const database = databases.fresh();
    const { runner, bodies } = runnerOn(database);
    runner.tool(drawNote);
    const result = await runner.run(
      [
        { type: 'text', text: 'Compare these' },
        { type: 'image', image: new Blob([JPEG], { type: 'image/jpeg' }) },
        { type: 'image', image: PNG.buffer.slice(0) as ArrayBuffer },
        { type: 'image', image: `data:image/png;base64,${PNG_BASE64}` },
        { type: 'file', data: new Blob([PDF]), mediaType: 'application/pdf', filename: 'r.pdf' },
      ],
      { conversation: 'c' },
    ).result;
    expect(result.text).toBe('Done.');
    const [first, second] = (await bodies()).map((body) => JSON.parse(body));
    expect(first.messages.at(-1).content).toEqual([
      { type: 'text', text: 'Compare these' },
      { type: 'image_url', image_url: { url: `data:image/jpeg;base64,${base64(JPEG)}` } },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG_BASE64}` } },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG_BASE64}` } },
      { type: 'file', file: { filename: 'r.pdf', file_data: `data:application/pdf;base64,${base64(PDF)}` } },
    ]);
    const drawn = second.messages.at(-1).content;
    expect(drawn[0].text).toMatch(/returned beside its result/);
    expect(drawn[1].image_url.url).toMatch(/^data:image\/png;base64,iVBORw0KGgo/);
    expect(result.toolResults[0]).toMatchObject({ ok: true, parts: [{ type: 'image', mediaType: 'image/png' }] });
  });

  it('stores the parts as Blobs in IndexedDB: after a reload they come back, and a new run sends them again', async () => {
    const database = databases.fresh();
    const before = runnerOn(database);
    before.runner.tool(drawNote);
    await before.runner.run(
      [
        { type: 'text', text: 'Keep this' },
        { type: 'image', image: new Blob([PNG], { type: 'image/png' }) },
      ],
      { conversation: 'c' },
    ).result;
    before.runner.close();

    const stored = await (await IndexedDbConversationStore.open(database)).load('c');
    const user = stored[0]!;
    expect(user.role).toBe('user');
    const image = (user.content as Array<{ type: string; image?: unknown }>)[1]!.image;
    expect(image).toBeInstanceOf(Blob);
    expect(new Uint8Array(await (image as Blob).arrayBuffer())).toEqual(PNG);
    const tool = stored.find((m) => m.role === 'tool')!;
    expect(tool.role === 'tool' && tool.parts?.[0]).toMatchObject({ type: 'image', image: expect.any(Blob), mediaType: 'image/png' });

    // The page reloaded: a new runner on the same database, a new message.
    const after = runnerOn(database);
    after.runner.tool(drawNote);
    await after.runner.run('And now?', { conversation: 'c' }).result;
    const [body] = await after.bodies();
    expect(body).toContain(`"url":"data:image/png;base64,${PNG_BASE64}"`);
  });

  it("a dedicated tool worker's image crosses (tool worker → page → runner worker) and reaches the model", async () => {
    const { runner, bodies } = runnerOn(databases.fresh());
    await runner.workerTools(() => new Worker(new URL('./fixtures/parts-tools.worker.ts', import.meta.url), { type: 'module' }));
    const result = await runner.run('Draw the chart').result;
    expect(result.toolResults[0]).toMatchObject({
      name: 'render_chart',
      ok: true,
      output: { rendered: 'chart' },
      parts: [{ type: 'image', mediaType: 'image/png' }],
    });
    const [, second] = await bodies();
    expect(JSON.parse(second!).messages.at(-1).content[1].image_url.url).toMatch(/^data:image\/png;base64,iVBORw0KGgo/);
  });

  it("hold mode: an untrusted tool's image is held in IndexedDB with its value, and no request carries its bytes", async () => {
    const database = databases.fresh();
    const session = 'parts-hold'; // scripted: it calls page_shot, then answers (tests/support/docs-model.ts)
    const runner = createWorkerRunner({ engine: openAICompatible({ baseURL: `${origin}/s/${session}/v1`, model: 'm' }), database, untrusted: 'hold' });
    opened.push(runner);
    const shot = defineTool({
      name: 'page_shot',
      description: 'A screenshot of a web page',
      parameters: { type: 'object' },
      readOnly: true,
      untrusted: true,
      call: () => withParts({ page: 'elsewhere' }, [{ type: 'image', image: new Blob([PNG], { type: 'image/png' }) }]),
    });
    runner.tool(shot);
    const result = await runner.run('Look at the page', { conversation: 'c' }).result;
    expect(result.held).toEqual([
      { id: '$1', from: 'page_shot', value: { page: 'elsewhere' }, parts: [{ type: 'image', image: expect.any(Blob), mediaType: 'image/png' }] },
    ]);
    const bodies: string[] = await (await fetch(`${origin}/s/${session}/bodies`)).json();
    expect(bodies).toHaveLength(2);
    for (const body of bodies) expect(body).not.toContain(PNG_BASE64.slice(0, 40));
    expect(bodies[1]).toContain('\\"parts\\":1');
    const held = await (await IndexedDbConversationStore.open(database)).held.get('c', '$1');
    expect(held).toMatchObject({ from: 'page_shot', value: { page: 'elsewhere' }, partCount: 1, parts: [{ type: 'image', mediaType: 'image/png' }] });
    expect(new Uint8Array(await (held!.parts![0] as { image: Blob }).image.arrayBuffer())).toEqual(PNG);
  });

  it('refuses a javascript: URL on the page with invalid_content, before anything crosses', async () => {
    const { runner, bodies } = runnerOn(databases.fresh());
    const run = runner.run([{ type: 'image', image: 'javascript:alert(1)' }]);
    const events = [];
    for await (const event of run.events) events.push(event);
    expect(isAmbiError(await run.result.catch((e: unknown) => e), 'invalid_content')).toBe(true);
    expect(events).toEqual([{ type: 'run_failed', error: expect.objectContaining({ code: 'invalid_content' }) }]);
    expect(await bodies()).toEqual([]);
  });

  it('a text-only model fails an image unsupported_content in the worker, before any request', async () => {
    const { runner, bodies } = runnerOn(databases.fresh(), { accepts: {} });
    const error = await runner.run([{ type: 'image', image: new Blob([PNG], { type: 'image/png' }) }]).result.catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'unsupported_content', part: expect.stringContaining('image/png') });
    expect(await bodies()).toEqual([]);
  });

  it('a part over the runner maxPartBytes is refused on the page with content_too_large', async () => {
    const runner = createWorkerRunner({ engine: openAICompatible({ baseURL: `${origin}/s/never/v1`, model: 'm' }), maxPartBytes: 10 });
    opened.push(runner);
    await expect(runner.run([{ type: 'image', image: new Blob([PNG], { type: 'image/png' }) }]).result).rejects.toMatchObject({ code: 'content_too_large' });
  });
});
