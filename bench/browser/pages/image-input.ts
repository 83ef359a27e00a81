// image-input-overhead: a run through the WorkerRunner whose question holds a 1 MB image (a Blob, as
// an <input type="file"> gives it) against the same run with the question's text only, same runner,
// same scripted model over HTTP (a call of the page's `read_title`, then the answer: two requests,
// each sending the image, base64, in its body). Information beside it: what crossing the worker
// costs the image as a Blob (its handle: the bytes stay where they are), as an ArrayBuffer copied,
// and as an ArrayBuffer transferred, each a round trip to a worker that sends it back.
import { createWorkerRunner, defineTool, openAICompatible } from '../../../src/worker/index.js';
import { expose } from './expose.js';

export interface ImageInputOptions {
  bytes: number;
  rounds: number;
  warmup: number;
}

export interface ImageInputRound {
  image: number;
  text: number;
}

export interface ImageInputResult {
  rounds: ImageInputRound[];
  /** Median ms of one round trip to a worker, by how the 1 MB crosses. */
  crossing: { blob: number; copied: number; transferred: number };
  /** Median ms of the same two requests as plain fetches from the page, their bodies holding the image in base64, and without it. */
  rawPosts: { image: number; text: number };
}

const readTitle = defineTool({
  name: 'read_title',
  description: 'The title of this page',
  parameters: { type: 'object', properties: {} },
  readOnly: true,
  call: () => document.title,
});

const QUESTION = 'What does this screenshot show?';

/** A PNG's signature and then `bytes` in all: an image as far as ambi-web reads one (the scripted model reads none). */
function image(bytes: number): Blob {
  const data = new Uint8Array(bytes);
  data.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  for (let i = 8; i < bytes; i++) data[i] = (i * 31) & 0xff;
  return new Blob([data], { type: 'image/png' });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Median ms of a round trip of `make()` to a worker that posts it back, `transfer` it where asked. */
async function roundTrip(make: () => unknown, transfer: boolean, times: number): Promise<number> {
  const worker = new Worker(new URL('./bounce.worker.ts', import.meta.url), { type: 'module' });
  const once = (value: unknown, moved: Transferable[]) =>
    new Promise<void>((resolve) => {
      worker.onmessage = () => resolve();
      worker.postMessage(value, moved);
    });
  await once(0, []);
  const ms: number[] = [];
  for (let i = 0; i < times; i++) {
    const value = make();
    const start = performance.now();
    await once(value, transfer ? [value as ArrayBuffer] : []);
    ms.push(performance.now() - start);
  }
  worker.terminate();
  return median(ms);
}

/** The floor: the run's two requests as plain fetches of bodies shaped as the engine writes them (with the image in base64, and without). */
async function rawPosts(baseURL: string, picture: Blob): Promise<{ image: number; text: number }> {
  const url = `${baseURL}/chat/completions`;
  const reader = new FileReader();
  const dataUrl = await new Promise<string>((resolve) => {
    reader.onload = () => resolve(String(reader.result));
    reader.readAsDataURL(picture);
  });
  const user = (withImage: boolean) => ({
    role: 'user',
    content: withImage
      ? [
          { type: 'text', text: QUESTION },
          { type: 'image_url', image_url: { url: dataUrl } },
        ]
      : QUESTION,
  });
  const call = { role: 'assistant', content: null, tool_calls: [{ id: 'call_0', type: 'function', function: { name: 'read_title', arguments: '{}' } }] };
  const result = { role: 'tool', tool_call_id: 'call_0', content: '{"ok":true,"output":"x"}' };
  const post = async (messages: unknown[]) => (await fetch(url, { method: 'POST', body: JSON.stringify({ model: 'answer', messages, stream: true }) })).text();
  const time = async (withImage: boolean) => {
    const start = performance.now();
    await post([user(withImage)]);
    await post([user(withImage), call, result]);
    return performance.now() - start;
  };
  const runs = { image: [] as number[], text: [] as number[] };
  for (let i = 0; i < 15; i++) {
    runs.image.push(await time(true));
    runs.text.push(await time(false));
  }
  return { image: median(runs.image.slice(3)), text: median(runs.text.slice(3)) };
}

expose<ImageInputOptions, ImageInputResult>({
  async run({ bytes, rounds, warmup }) {
    const baseURL = new URL('image-input/v1', document.baseURI).href;
    const runner = createWorkerRunner({ engine: openAICompatible({ baseURL, model: 'answer' }) }).tool(readTitle);
    const picture = image(bytes);
    const sides = {
      image: () =>
        runner.run([
          { type: 'text', text: QUESTION },
          { type: 'image', image: picture },
        ]).result,
      text: () => runner.run(QUESTION).result,
    };
    const out: ImageInputRound[] = [];
    for (let i = 0; i < warmup + rounds; i++) {
      const round = { image: 0, text: 0 };
      for (const side of i % 2 ? (['text', 'image'] as const) : (['image', 'text'] as const)) {
        const start = performance.now();
        const result = await sides[side]();
        round[side] = performance.now() - start;
        if (result.toolResults.length !== 1 || result.text === '') throw new Error(`${side}: the run did not call read_title and answer`);
      }
      if (i >= warmup) out.push(round);
    }
    runner.close();
    const buffer = await picture.arrayBuffer();
    const crossing = {
      blob: await roundTrip(() => picture, false, 30),
      copied: await roundTrip(() => buffer, false, 30),
      transferred: await roundTrip(() => buffer.slice(0), true, 30),
    };
    return { rounds: out, crossing, rawPosts: await rawPosts(baseURL, picture) };
  },
});
