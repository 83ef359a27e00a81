// codemode-call-overhead-worker: the driver's side (the page is bench/browser/pages/codemode-call.ts).
import type { Browser } from 'playwright';
import { medianUpper95, pairedFigure, spread, type Measurement } from '../lib/stats.js';
import type { OpenPage } from './output-benches.js';
import type { CodemodeCallOptions, CodemodeCallRound } from './pages/codemode-call.js';

const pct = (value: number) => `${(value * 100).toFixed(0)}%`;

/** A program's call of a page tool through the WorkerRunner, against the same call made by the runner itself. */
export async function codemodeCallOverheadWorker(browser: Browser, origin: string, openPage: OpenPage): Promise<Measurement[]> {
  const page = await openPage(browser, origin, 'codemode-call');
  const options: CodemodeCallOptions = { calls: 100, rounds: 21, warmup: 4 };
  const rounds = (await page.evaluate((o) => window.bench!.run(o as never), options as never)) as CodemodeCallRound[];
  await page.close();
  const program = rounds.map((round) => round.program);
  const direct = rounds.map((round) => round.direct);
  const ratios = program.map((p, i) => p / direct[i]!);
  return [
    {
      name: 'codemode-call-overhead-worker',
      unit: 'µs per call',
      baseline: "the same call of a page tool made directly by the runner (a reply's calls, one at a time), same WorkerRunner in Chromium",
      ...pairedFigure(program, direct),
      target: '<= 3',
      note: `a page tool called by a program (the sandbox's worker → the runner worker's call pipeline → the page) against the runner's own call of it; per call (a run of ${2 * options.calls} calls − one of ${options.calls}) / ${options.calls}; upper 95% of the per-round ratio ${medianUpper95(ratios).toFixed(2)}; ${rounds.length} rounds ±${pct(spread(program))}/±${pct(spread(direct))}`,
    },
  ];
}
