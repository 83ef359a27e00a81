// Code Mode's sandbox in Chromium: the hostile suite in the sandbox's own dedicated worker (and
// in-process, as in an extension's service worker), and what only a worker can do: stop a
// program at once, and be stopped by the host when the program never yields.
import { describe, expect, it } from 'vitest';
import { runProgram } from '../../src/codemode/run-program.js';
import { runInWorker, type SandboxWorker } from '../../src/codemode/worker-sandbox.js';
import { resolveLimits } from '../../src/codemode/limits.js';
import { describeSandboxAttacks } from '../contract/codemode-sandbox.js';

describeSandboxAttacks('Chromium, its own worker', 'worker');
describeSandboxAttacks('Chromium, in-process', 'in-process');

const noTools = { names: [], call: async () => null };

describe("the sandbox's worker", () => {
  it('is the default where Worker exists, and each program gets a new one (nothing carries over)', async () => {
    const first = await runProgram('globalThis.left = 1; return typeof WorkerGlobalScope;', { tools: noTools });
    const second = await runProgram('return typeof globalThis.left;', { tools: noTools });
    expect([first.result, second.result]).toEqual(['undefined', 'undefined']);
  });

  it('abort terminates a program stuck in a tight loop at once, long before its deadline', async () => {
    const controller = new AbortController();
    const started = performance.now();
    const program = runProgram('while (true) {}', { tools: noTools, timeoutMs: 120_000, signal: controller.signal });
    setTimeout(() => controller.abort(), 300);
    await expect(program).rejects.toMatchObject({ code: 'aborted' });
    expect(performance.now() - started).toBeLessThan(60_000);
  });

  it('is terminated by the host when the program never yields and never checks its deadline (program_timeout)', async () => {
    const program = { code: 'ignored', names: [], limits: resolveLimits({ timeoutMs: 200 }) };
    const start = () => new Worker(new URL('./fixtures/codemode-stuck.worker.ts', import.meta.url), { type: 'module' }) as SandboxWorker;
    const outcome = await runInWorker(program, noTools, undefined, start);
    expect(outcome).toMatchObject({ ok: false, code: 'program_timeout' });
  });

  it('a worker that does not load is sandbox_unavailable', async () => {
    const program = { code: 'return 1', names: [], limits: resolveLimits({}) };
    const start = () => new Worker('/no-such-sandbox.worker.js', { type: 'module' }) as SandboxWorker;
    await expect(runInWorker(program, noTools, undefined, start)).rejects.toMatchObject({ code: 'sandbox_unavailable' });
  });

  it('runs a program of many awaited calls, each answered by the page', async () => {
    const calls: number[] = [];
    const tools = { names: ['inc'], call: async (_name: string, args: unknown) => (calls.push((args as { n: number }).n), (args as { n: number }).n + 1) };
    const output = await runProgram('let n = 0;\nfor (let i = 0; i < 200; i++) n = await tools.inc({ n });\nreturn n;', { tools });
    expect(output.result).toBe(200);
    expect(calls).toHaveLength(200);
  });
});
