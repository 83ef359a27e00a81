// The page's main thread in a Chromium trace (categories `toplevel`, `blink.user_timing`): its
// top-level tasks between the page's marks `busy-start` and `busy-end`.

/** A trace's top-level tasks on a page's main thread: start (µs, trace clock) and duration (µs). */
interface Task {
  ts: number;
  dur: number;
}

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { name?: string; data?: { frame?: string } };
}

/** Busy time and the longest task on the page's main thread between the marks `busy-start` and `busy-end`. */
export function mainThreadTasks(trace: Buffer): { busyMs: number; longestMs: number; tasks: number } {
  const events = (JSON.parse(trace.toString('utf8')) as { traceEvents: TraceEvent[] }).traceEvents;
  const start = events.find((e) => e.name === 'busy-start');
  const end = events.find((e) => e.name === 'busy-end');
  if (!start || !end) throw new Error('main-thread-busy: the marks are not in the trace');
  // The marks are made on the page's main thread: its tasks are those of that thread.
  const tasks: Task[] = events
    .filter((e) => e.ph === 'X' && e.pid === start.pid && e.tid === start.tid && (e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask'))
    .map((e) => ({ ts: e.ts, dur: e.dur ?? 0 }))
    .filter((task) => task.ts + task.dur > start.ts && task.ts < end.ts);
  // Nested RunTask events count once: keep the outermost.
  tasks.sort((a, b) => a.ts - b.ts);
  const outer: Task[] = [];
  for (const task of tasks) {
    const last = outer.at(-1);
    if (last && task.ts < last.ts + last.dur) continue;
    outer.push(task);
  }
  return {
    busyMs: outer.reduce((sum, task) => sum + task.dur, 0) / 1000,
    longestMs: Math.max(0, ...outer.map((task) => task.dur)) / 1000,
    tasks: outer.length,
  };
}
