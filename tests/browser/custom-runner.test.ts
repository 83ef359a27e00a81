// A runner worker of the app's own (fixtures/custom-runner.worker.ts, `serveRunner`), in Chromium:
// its own engine kind and extension, Anthropic, Google and OpenAI built in the worker from plain
// data with their own packages (the recorded streams served on loopback: tool calls, usage, a
// 401, an abort mid-stream), and what the page still does for a run (traces, Standard Schema).
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { describe, expect, inject, it } from 'vitest';
import { z } from 'zod';
import { createWorkerRunner, defineTool, isAmbiError, type RunEvent, type WorkerRunner } from '../../src/index.js';
import { collect } from '../support/run-events.js';
import { runnersClosedAfterEach } from '../support/worker-runners.js';

const { keep } = runnersClosedAfterEach();
const origin = inject('providerServerOrigin');
const customWorker = () => new Worker(new URL('./fixtures/custom-runner.worker.ts', import.meta.url), { type: 'module' });

/** A runner on the custom worker, with `engine` as the page writes it (plain data). */
const runnerOn = (engine: { kind: string; [field: string]: unknown }): WorkerRunner => keep(createWorkerRunner({ worker: customWorker, engine }));

/** A page tool answering with what it received: it runs here, on the page, called from the worker. */
const pageTool = (name: string) =>
  defineTool({
    name,
    description: `The ${name} tool`,
    parameters: { type: 'object' },
    idempotent: true,
    call: (args) => ({ received: args, onPage: typeof document }),
  });
const calculator = defineTool({
  name: 'calculator',
  description: 'a op b',
  parameters: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' }, op: { enum: ['add', 'multiply'] } }, required: ['a', 'b', 'op'] },
  readOnly: true,
  call: ({ a, b, op }) => (op === 'add' ? a + b : a * b),
});

const KEY = 'key-entered-on-the-page';
const provider = (kind: 'anthropic' | 'google' | 'openai', scenario: string, extra: Record<string, unknown> = {}) => {
  const session = `${kind}-${scenario}-${crypto.randomUUID()}`;
  const model = { anthropic: 'claude-sonnet-4-5', google: 'gemini-3-pro-preview', openai: 'gpt-5.1-codex-max' }[kind];
  return { session, engine: { kind, apiKey: KEY, baseURL: `${origin}/${session}/${scenario}/${kind}`, model, ...extra } };
};
const serverSays = async (session: string, what: 'requests' | 'closed' | 'sent') => (await fetch(`${origin}/${session}/${what}`)).json();
const usages = (events: RunEvent[]) => events.flatMap((event) => (event.type === 'usage' ? [event.usage] : []));

describe("a runner worker of the app's own", () => {
  it("builds the app's own engine kind from the page's plain data, and runs the app's own extension in the worker", async () => {
    const runner = runnerOn({ kind: 'echo', greeting: 'Hello' });
    const events = await collect(runner.run('Ada'));
    expect(events.at(-1)).toMatchObject({ type: 'run_finished', result: { text: 'Hello, Ada' } });
    expect(events).toContainEqual({ type: 'warning', code: 'realm_note', message: 'turn 1 in a worker' });
  });

  it('fails a run on a kind the worker does not know with unknown_engine, naming its kinds', async () => {
    const error = await runnerOn({ kind: 'mistral', model: 'large' })
      .run('Hi')
      .result.catch((e: unknown) => e);
    expect(isAmbiError(error, 'unknown_engine')).toBe(true);
    expect((error as Error).message).toBe(
      'No engine for kind "mistral" in this runner; its kinds: openai-compatible, scripted, replay, prompt-api, local, echo, anthropic, google, openai',
    );
  });

  it('refuses an engine config that is not plain data (a function in it) with invalid_option, nothing sent', async () => {
    const error = await runnerOn({ kind: 'echo', greeting: () => 'Hello' })
      .run('Ada')
      .result.catch((e: unknown) => e);
    expect(isAmbiError(error, 'invalid_option')).toBe(true);
    expect((error as Error).message).toContain('only plain data can');
  });

  it('still parses a Standard Schema answer on the page, and still traces the run there', async () => {
    const exporter = new InMemorySpanExporter();
    const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).getTracer('custom-runner-test');
    const output = z.object({ said: z.string().transform((said) => said.toUpperCase()) });
    const result = await runnerOn({ kind: 'echo', greeting: 'Hi' }).run('Bo', { output, tracer }).result;
    expect(result.output).toEqual({ said: 'HI, BO' });
    expect(exporter.getFinishedSpans().map((span) => span.name)).toEqual(expect.arrayContaining(['invoke_agent', 'chat']));
  });
});

describe.each([
  ['anthropic', 'updateIssueList'],
  ['google', 'weather'],
  ['openai', 'calculator'],
] as const)('%s in the custom runner worker, straight from the browser with a key entered on the page', (kind, toolName) => {
  it('runs the recorded calls (the tools run on the page), sends their results back, and answers with usage counted', async () => {
    const { session, engine } = provider(kind, 'run');
    const runner = runnerOn(engine).tool(toolName === 'calculator' ? calculator : pageTool(toolName));
    const run = runner.run('Go');
    const events = await collect(run);
    const result = await run.result;
    expect(result.toolResults.length).toBeGreaterThan(0);
    expect(result.toolResults.every((r) => r.ok && r.name === toolName)).toBe(true);
    expect(result.text.length).toBeGreaterThan(0);
    expect(usages(events).length).toBe(result.usage?.requests);
    const requests = (await serverSays(session, 'requests')) as Array<{ headers: Record<string, string>; json: unknown }>;
    expect(requests).toHaveLength(result.iterations);
    const sentKey = {
      anthropic: requests[0]!.headers['x-api-key'],
      google: requests[0]!.headers['x-goog-api-key'],
      openai: requests[0]!.headers.authorization,
    }[kind];
    expect(sentKey).toContain(KEY);
    if (kind === 'openai') expect(result.text).toBe('The final result is **570**.');
    if (kind === 'google') expect(result.usage?.reasoningTokens).toBe(230);
    if (kind !== 'openai') expect(result.toolResults[0]).toMatchObject({ output: { onPage: 'object' } });
  });

  it("fails with the provider's 401 as http_error, the status kept and the key not in it", async () => {
    const error = await runnerOn(provider(kind, 'unauthorized').engine)
      .run('Go')
      .result.catch((e: unknown) => e);
    expect(isAmbiError(error, 'http_error')).toBe(true);
    expect(error).toMatchObject({ status: 401 });
    expect((error as Error).message).not.toContain(KEY);
  });

  it('aborts mid-stream from the page: the request is cancelled at the server', async () => {
    const { session, engine } = provider(kind, 'hold');
    const run = runnerOn(engine)
      .tool(toolName === 'calculator' ? calculator : pageTool(toolName))
      .run('Go');
    expect(await serverSays(session, 'sent')).toBe('sent');
    run.abort('Stop pressed');
    await expect(run.result).rejects.toMatchObject({ code: 'aborted' });
    expect(await serverSays(session, 'closed')).toBe('closed');
  });
});

describe('Anthropic from a browser', () => {
  it('is refused (CORS) without its opt-in header: the run fails network_error', async () => {
    const error = await runnerOn(provider('anthropic', 'run', { directBrowserAccess: false }).engine)
      .run('Go')
      .result.catch((e: unknown) => e);
    expect(isAmbiError(error, 'network_error')).toBe(true);
  });
});
