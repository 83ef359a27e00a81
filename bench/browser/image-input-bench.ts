// image-input-overhead: the driver's side (the page is bench/browser/pages/image-input.ts).
import type { Browser } from 'playwright';
import { pairedFigure, spread, type Measurement } from '../lib/stats.js';
import type { OpenPage } from './output-benches.js';
import type { ImageInputOptions, ImageInputResult } from './pages/image-input.js';

const pct = (value: number) => `${(value * 100).toFixed(0)}%`;

/** A run whose question holds a 1 MB image against the same run with its text only, both through the WorkerRunner. */
export async function imageInputOverhead(browser: Browser, origin: string, openPage: OpenPage): Promise<Measurement[]> {
  const page = await openPage(browser, origin, 'image-input');
  const options: ImageInputOptions = { bytes: 1024 * 1024, rounds: 20, warmup: 3 };
  const { rounds, crossing, rawPosts } = (await page.evaluate((o) => window.bench!.run(o as never), options as never)) as ImageInputResult;
  await page.close();
  const image = rounds.map((round) => round.image);
  const text = rounds.map((round) => round.text);
  const base64 = Math.ceil(options.bytes / 3) * 4;
  return [
    {
      name: 'image-input-overhead',
      unit: 'ms/run',
      baseline: 'the same run with the question as text only, same WorkerRunner, same scripted model over HTTP',
      ...pairedFigure(image, text),
      target: null,
      note: `a run (a call of read_title, then the answer: two requests) whose question holds a 1 MB image, a Blob: what crosses to the runner worker is the Blob, a handle (a round trip of it to a worker ${crossing.blob.toFixed(2)} ms, against ${crossing.copied.toFixed(2)} ms for the same bytes as an ArrayBuffer, copied, and ${crossing.transferred.toFixed(2)} ms transferred); the worker reads its bytes once and sends them base64 (${(base64 / 1e6).toFixed(2)} MB) in each request body; the same two requests as plain fetches from the page: ${rawPosts.image.toFixed(1)} ms with the image, ${rawPosts.text.toFixed(1)} ms without; ${rounds.length} rounds ±${pct(spread(image))}/±${pct(spread(text))}`,
    },
  ];
}
