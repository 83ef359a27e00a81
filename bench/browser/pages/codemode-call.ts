// codemode-call-overhead-worker: a call a Code Mode program makes of a page tool, through the
// WorkerRunner (the sandbox's worker to the runner worker, the call pipeline, the page), against
// the same call made directly by the runner (a model reply's calls, run one at a time: a runner of
// one slot). Each side's per-call time is (a run of 2N calls − the same run of N) / N, so the
// model turns, the program's start and the run's own work cancel out.
import { createWorkerRunner, defineTool, type ScriptedReply, scriptedEngine, type WorkerRunner } from '../../../src/worker/index.js';
import { expose } from './expose.js';

export interface CodemodeCallOptions {
  calls: number;
  rounds: number;
  warmup: number;
}

export interface CodemodeCallRound {
  /** µs per call. */
  program: number;
  direct: number;
}

const ping = defineTool({
  name: 'ping',
  description: 'Answer with what it is given',
  parameters: { type: 'object', properties: { i: { type: 'number' } } },
  readOnly: true,
  call: ({ i }: { i?: number }) => i ?? 0,
});

const program = (n: number): ScriptedReply => ({
  toolCalls: [{ name: 'run_code', arguments: { code: `let t = 0; for (let i = 0; i < ${n}; i++) t += await tools.ping({ i }); return t;` } }],
});
const direct = (n: number): ScriptedReply => ({ toolCalls: Array.from({ length: n }, (_, i) => ({ name: 'ping', arguments: { i } })) });

/** A runner whose model answers each of `runs` runs with `reply`, then 'done'. */
function runnerOf(reply: ScriptedReply, runs: number): WorkerRunner {
  const replies = Array.from({ length: runs }, () => [reply, 'done'] as ScriptedReply[]).flat();
  return createWorkerRunner({ engine: scriptedEngine(replies), codeMode: true, concurrency: 1 }).tool(ping);
}

async function timed(runner: WorkerRunner, calls: number): Promise<number> {
  const start = performance.now();
  const result = await runner.run('go', { maxCallsPerReply: 1_000 }).result;
  const elapsed = performance.now() - start;
  const made = result.toolResults[0]?.name === 'run_code' ? (result.toolResults[0].ok ? calls : -1) : result.toolResults.length;
  if (made !== calls) throw new Error(`expected ${calls} calls: ${JSON.stringify(result.toolResults[0]).slice(0, 200)}`);
  return elapsed;
}

expose<CodemodeCallOptions, CodemodeCallRound[]>({
  async run({ calls, rounds, warmup }) {
    const runs = warmup + rounds;
    const sides = {
      program: [runnerOf(program(calls), runs), runnerOf(program(2 * calls), runs)] as const,
      direct: [runnerOf(direct(calls), runs), runnerOf(direct(2 * calls), runs)] as const,
    };
    const out: CodemodeCallRound[] = [];
    for (let i = 0; i < runs; i++) {
      const round = { program: 0, direct: 0 };
      for (const side of i % 2 ? (['direct', 'program'] as const) : (['program', 'direct'] as const)) {
        const [once, twice] = sides[side];
        const single = await timed(once, calls);
        const double = await timed(twice, 2 * calls);
        round[side] = ((double - single) * 1000) / calls;
      }
      if (i >= warmup) out.push(round);
    }
    for (const pair of Object.values(sides)) for (const runner of pair) runner.close();
    return out;
  },
});
