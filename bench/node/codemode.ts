// codemode-host-call: what an awaited tool call from a Code Mode program costs in-process
// (Node): the program's `await tools.ping({ i })`, the arguments as JSON out of QuickJS, the
// host's answer as JSON back in, the jobs run; against the same number of awaited calls of the
// host function made directly. Information: a program's calls go through the call pipeline later.
import { runProgram } from '../../src/codemode/run-program.js';
import { median, spread, type Measurement } from '../lib/stats.js';

const CALLS = 1_000;

export async function codemode(): Promise<Measurement[]> {
  const ping = async (_name: string, args: unknown) => args;
  const tools = { names: ['ping'], call: ping };
  const program = `let last; for (let i = 0; i < ${CALLS}; i++) last = await tools.ping({ i }); return last;`;
  const ours: number[] = [];
  const direct: number[] = [];
  const starts: number[] = [];
  for (let round = 0; round < 12; round++) {
    let started = performance.now();
    await runProgram('return 1;', { tools, isolation: 'in-process' });
    const start = performance.now() - started;
    started = performance.now();
    await runProgram(program, { tools, isolation: 'in-process' });
    const elapsed = performance.now() - started - start;
    started = performance.now();
    for (let i = 0; i < CALLS; i++) await ping('ping', { i });
    const plain = performance.now() - started;
    if (round >= 2) {
      starts.push(start);
      ours.push((elapsed * 1000) / CALLS);
      direct.push((plain * 1000) / CALLS);
    }
  }
  const pct = (values: number[]) => `±${(spread(values) * 100).toFixed(0)}%`;
  return [
    {
      name: 'codemode-host-call',
      value: median(ours),
      unit: 'µs',
      baseline: 'the same awaited call of the host function, made directly',
      baselineValue: median(direct),
      ratio: median(ours) / median(direct),
      target: null,
      note: `in-process (Node): a program of ${CALLS} awaited calls, less a program's start; 10 rounds, ours ${pct(ours)}`,
    },
    {
      name: 'codemode-start',
      value: median(starts),
      unit: 'ms',
      baseline: 'none',
      baselineValue: Number.NaN,
      ratio: Number.NaN,
      target: null,
      note: `in-process (Node): runProgram('return 1') from call to result, a fresh QuickJS instance (wasm compiled, memory capped) each time; ${pct(starts)}`,
    },
  ];
}
