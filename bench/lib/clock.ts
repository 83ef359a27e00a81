// The clock of the in-process Node benchmarks: wall time, or with BENCH_CPU=1 this process's CPU
// time, which other processes on a shared machine cannot stretch (for comparing a change there).

/** Milliseconds now, on the clock BENCH_CPU chooses. */
export const now: () => number =
  process.env.BENCH_CPU === '1'
    ? () => {
        const { user, system } = process.cpuUsage();
        return (user + system) / 1000;
      }
    : () => performance.now();

/** What a figure's note says about its clock. */
export const clockNote = process.env.BENCH_CPU === '1' ? "this process's CPU time (BENCH_CPU=1)" : 'wall time';
