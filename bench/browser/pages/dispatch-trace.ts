// The worker-dispatch breakdown: where one call's round trip goes, from traced copies of the
// loops (session-trace.ts), one run each after the timed rounds. Per call: how long each
// message waits between one thread posting it and the other starting to handle it (a leg:
// the wake-up of an idle thread, or a busy thread finishing what it was doing), the
// JavaScript on each side before it answers and after, and how many messages and timer
// tasks there are each way.
import type { TraceRecord } from './session-trace.js';

/** Means over a run's calls, in µs (means, so the parts add up to the round trip: leg + JS + leg + JS); `perCall`: messages (by kind) and tasks per call. */
export interface LoopTrace {
  calls: number;
  roundTrip: number;
  /** Worker posts the call -> the page starts handling it. */
  pageLeg: number;
  /** The page's handling until it posts the answer. */
  pageAnswer: number;
  /** The page's handling after it posted the answer (its microtasks included). */
  pageTail: number;
  /** Page posts the answer -> the worker starts handling it. */
  workerLeg: number;
  /** The worker's handling of the answer until it posts the next call. */
  workerNext: number;
  /** The worker's handling after it posted the next call. */
  workerTail: number;
  /** Share of answers posted while the worker was still handling the previous one: their leg waits on the worker, not on a wake-up. */
  answeredWhileWorkerBusy: number;
  /** The part of the worker leg spent waiting for the worker's own previous handling to end (0 when it was idle). */
  workerLegBusy: number;
  perCall: { workerToPage: Record<string, number>; pageToWorker: Record<string, number>; workerTimers: number; pageOtherTasks: number };
  /** Mean length of the page's other tasks (event batches), µs. */
  pageOtherTaskUs: number;
}

const times = (log: TraceRecord[], what: TraceRecord[0], kind: string) => log.filter((r) => r[0] === what && r[1] === kind).map((r) => r[2]);

/** The first time in `sorted` after `t`. */
const after = (sorted: number[], t: number) => sorted.find((x) => x >= t) ?? Number.NaN;

const us = (ms: number[]) => (ms.reduce((sum, x) => sum + x, 0) / ms.length) * 1000;

/** Break a traced run down: `request` is the worker's call message kind, `answer` the page's. */
export function breakDown(page: TraceRecord[], worker: TraceRecord[], request: string, answer: string): LoopTrace {
  const posted = times(worker, 'out', request);
  const arrived = times(page, 'in', request);
  const answered = times(page, 'out', answer);
  const pageEnds = times(page, 'end', request);
  const back = times(worker, 'in', answer);
  const workerEnds = times(worker, 'end', answer);
  const n = Math.min(posted.length, arrived.length, answered.length, back.length);
  const from = posted[0]!;
  const to = back[n - 1]!;
  const within = (log: TraceRecord[], what: TraceRecord[0]) => log.filter((r) => r[0] === what && r[2] >= from && r[2] <= to);
  const perKind = (records: TraceRecord[]) => {
    const counts: Record<string, number> = {};
    for (const [, kind] of records) counts[kind] = (counts[kind] ?? 0) + 1;
    for (const kind of Object.keys(counts)) counts[kind] = Number((counts[kind]! / n).toFixed(3));
    return counts;
  };
  const pageOther = within(page, 'in').filter((r) => r[1] !== request);
  const otherEnds = page.filter((r) => r[0] === 'end' && r[1] !== request).map((r) => r[2]);
  const k = Array.from({ length: n - 1 }, (_, i) => i).slice(1);
  return {
    calls: n,
    roundTrip: us(k.map((i) => arrived[i + 1]! - arrived[i]!)),
    pageLeg: us(k.map((i) => arrived[i]! - posted[i]!)),
    pageAnswer: us(k.map((i) => answered[i]! - arrived[i]!)),
    pageTail: us(k.map((i) => after(pageEnds, answered[i]!) - answered[i]!)),
    workerLeg: us(k.map((i) => back[i]! - answered[i]!)),
    workerNext: us(k.map((i) => posted[i + 1]! - back[i]!)),
    workerTail: us(k.map((i) => after(workerEnds, posted[i + 1]!) - posted[i + 1]!)),
    workerLegBusy: us(k.map((i) => Math.max(0, Math.min(back[i]!, after(workerEnds, back[i - 1]!)) - answered[i]!))),
    answeredWhileWorkerBusy: k.filter((i) => after(workerEnds, back[i - 1]!) > answered[i]!).length / k.length,
    perCall: {
      workerToPage: perKind(within(worker, 'out')),
      pageToWorker: perKind(within(page, 'out')),
      workerTimers: within(worker, 'timer').length / n,
      pageOtherTasks: pageOther.length / n,
    },
    pageOtherTaskUs: us(pageOther.map((r) => after(otherEnds, r[2]) - r[2])),
  };
}

/** The mean of several runs' breakdowns, field by field (message counts by kind included). */
export function meanTrace(traces: readonly LoopTrace[]): LoopTrace {
  const mean = (pick: (t: LoopTrace) => number) => traces.reduce((sum, t) => sum + pick(t), 0) / traces.length;
  const meanCounts = (pick: (t: LoopTrace) => Record<string, number>) => {
    const kinds = new Set(traces.flatMap((t) => Object.keys(pick(t))));
    return Object.fromEntries([...kinds].map((kind) => [kind, Number(mean((t) => pick(t)[kind] ?? 0).toFixed(3))]));
  };
  return {
    calls: mean((t) => t.calls),
    roundTrip: mean((t) => t.roundTrip),
    pageLeg: mean((t) => t.pageLeg),
    pageAnswer: mean((t) => t.pageAnswer),
    pageTail: mean((t) => t.pageTail),
    workerLeg: mean((t) => t.workerLeg),
    workerNext: mean((t) => t.workerNext),
    workerTail: mean((t) => t.workerTail),
    answeredWhileWorkerBusy: mean((t) => t.answeredWhileWorkerBusy),
    workerLegBusy: mean((t) => t.workerLegBusy),
    perCall: {
      workerToPage: meanCounts((t) => t.perCall.workerToPage),
      pageToWorker: meanCounts((t) => t.perCall.pageToWorker),
      workerTimers: mean((t) => t.perCall.workerTimers),
      pageOtherTasks: mean((t) => t.perCall.pageOtherTasks),
    },
    pageOtherTaskUs: mean((t) => t.pageOtherTaskUs),
  };
}

/** One line for the table's notes. */
export function describeTrace(name: string, t: LoopTrace): string {
  const f = (x: number) => x.toFixed(1);
  const counts = (c: Record<string, number>) =>
    Object.entries(c)
      .map(([kind, x]) => `${kind} ${x}`)
      .join(', ');
  return `${name}: round trip ${f(t.roundTrip)} = page leg ${f(t.pageLeg)} + page JS ${f(t.pageAnswer)} (then ${f(t.pageTail)} after answering) + worker leg ${f(t.workerLeg)} (${f(t.workerLegBusy)} of it waiting for the worker's previous handling to end) + worker JS ${f(t.workerNext)} (then ${f(t.workerTail)} after posting); answers posted while the worker was still busy ${(t.answeredWhileWorkerBusy * 100).toFixed(0)}%; messages per call worker->page {${counts(t.perCall.workerToPage)}}, page->worker {${counts(t.perCall.pageToWorker)}}, worker timer tasks ${t.perCall.workerTimers.toFixed(3)}, other page tasks ${t.perCall.pageOtherTasks.toFixed(3)} (${f(t.pageOtherTaskUs)} µs each)`;
}
