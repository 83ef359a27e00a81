// Issue 15: an HTTP failure keeps its status and Retry-After across the runner worker, so 401 and 429 differ without parsing text.
import { describe, expect, it } from 'vitest';
import { createWorkerRunner, isAmbiError, scriptedEngine, type RunEvent } from '../../src/index.js';
import { runnersClosedAfterEach } from '../support/worker-runners.js';

const { keep } = runnersClosedAfterEach();

async function failedRun(error: { status: number; message: string; retryAfterMs?: number }) {
  const runner = keep(createWorkerRunner({ engine: scriptedEngine([{ error }]) }));
  const run = runner.run('hi');
  const events: RunEvent[] = [];
  for await (const event of run.events) events.push(event);
  return { error: await run.result.catch((e: unknown) => e), failed: events.find((e) => e.type === 'run_failed') };
}

describe('WorkerRunner: an HTTP failure of the model server', () => {
  it('429: the page gets an EngineHttpError with status and retryAfterMs, in the result and the run_failed event', async () => {
    const { error, failed } = await failedRun({ status: 429, message: 'Slow down', retryAfterMs: 2500 });
    expect(isAmbiError(error, 'http_error')).toBe(true);
    expect(error).toMatchObject({ name: 'EngineHttpError', code: 'http_error', status: 429, retryAfterMs: 2500 });
    expect(failed).toMatchObject({ error: { code: 'http_error', name: 'EngineHttpError', details: { status: 429, retryAfterMs: 2500 } } });
  });

  it('401: status 401, and no retryAfterMs when the server named no wait', async () => {
    const { error } = await failedRun({ status: 401, message: 'Incorrect API key' });
    expect(error).toMatchObject({ name: 'EngineHttpError', status: 401 });
    expect((error as { retryAfterMs?: number }).retryAfterMs).toBeUndefined();
    expect((error as Error).message).toContain('Incorrect API key');
  });
});
