// The local model inside the runner worker: the config (a Blob) crosses as plain data, the
// model loads in the worker, a page tool answers the grammar-constrained call.
import { expect, test } from 'vitest';
import { createWorkerRunner, defineTool, downloadLocalModel, localModel, type RunEvent } from '../../src/index.js';
import { runnersClosedAfterEach } from '../support/worker-runners.js';
import { tinyGguf } from '../support/tiny-gguf.js';

const { keep } = runnersClosedAfterEach();

test('a run in the runner worker on a local model calls a page tool and answers', async () => {
  const runner = createWorkerRunner({ engine: localModel({ source: new Blob([tinyGguf()]), maxTokens: 150, temperature: 0, threads: 1 }) });
  keep(runner);
  const seen: Array<{ a: number; b: number }> = [];
  runner.tool(
    defineTool({
      name: 'add',
      description: 'Add two integers.',
      parameters: { type: 'object', properties: { a: { type: 'integer' }, b: { type: 'integer' } }, required: ['a', 'b'] } as const,
      idempotent: true,
      call: (args) => (seen.push(args), args.a + args.b),
    }),
  );
  const run = runner.run('What is 2 + 3?', { toolChoice: { name: 'add' }, maxIterations: 3 });
  const events: RunEvent[] = [];
  for await (const event of run.events) events.push(event);
  const result = await run.result;
  expect(seen.length).toBeGreaterThanOrEqual(1);
  expect(result.toolResults[0]).toMatchObject({ name: 'add', ok: true, output: seen[0]!.a + seen[0]!.b });
  expect(result.iterations).toBe(2);
  expect(events.some((e) => e.type === 'text_delta')).toBe(true);
}, 30_000);

test('the page downloads with progress; the worker then loads the same URL from Cache Storage', async () => {
  const bytes = tinyGguf({ seed: 5 });
  const url = new URL(`/models/worker-${Date.now()}.gguf`, location.href).href;
  let fetches = 0;
  // The page's download is served by a counting fetch; the worker has only the real network,
  // where this URL does not exist: it can only succeed from the cache.
  const serve: typeof fetch = async () => {
    fetches++;
    return new Response(new Blob([bytes]), { headers: { 'content-length': String(bytes.length) } });
  };
  const progress: number[] = [];
  await downloadLocalModel(url, { fetch: serve, onProgress: (p) => p.phase === 'download' && progress.push(p.loaded) });
  expect(progress.at(-1)).toBe(bytes.length);

  const runner = createWorkerRunner({ engine: localModel({ source: url, maxTokens: 8, threads: 1 }) });
  keep(runner);
  const result = await runner.run('Hello').result;
  expect(result.iterations).toBe(1);
  expect(fetches).toBe(1);
  await caches.open('ambi-web-models').then((cache) => cache.delete(url));
}, 30_000);
