import { callReporting } from '../util/call-reporting.js';

/**
 * Call timeouts on one timer. A timer per call costs two calls into the browser (set and
 * clear) on every call, and nearly every call ends long before its deadline: here a call
 * adds an entry to a heap, and ending it only marks the entry. The one timer is armed for
 * the earliest live deadline; dead entries are dropped as it passes them, or all at once
 * when they outnumber the live ones.
 */
interface Entry {
  at: number;
  fire: () => void;
  live: boolean;
}

const noop = () => {};

/** setTimeout's longest delay; a later deadline re-arms on the way. */
const MAX_DELAY = 2 ** 31 - 1;

const heap: Entry[] = [];
let live = 0;
let timer: ReturnType<typeof setTimeout> | undefined;
let armedAt = Number.POSITIVE_INFINITY;
let firing = false;

/** Call `fire` after `ms` unless the returned function is called first. */
export function deadline(ms: number, fire: () => void): () => void {
  const entry: Entry = { at: performance.now() + ms, fire, live: true };
  push(entry);
  if (live++ === 0) keepAlive(true);
  if (!firing && entry.at < armedAt) arm(entry.at);
  return () => {
    if (!entry.live) return;
    entry.live = false;
    // The dead entry stays in the heap until its deadline passes: it must not keep the call's closure (args, output) alive.
    entry.fire = noop;
    if (--live === 0) keepAlive(false);
    if (heap.length > 64 && heap.length > 2 * live) compact();
  };
}

function arm(at: number): void {
  if (timer !== undefined) clearTimeout(timer);
  armedAt = at;
  timer = setTimeout(expire, Math.min(MAX_DELAY, Math.max(0, at - performance.now())));
}

function expire(): void {
  timer = undefined;
  armedAt = Number.POSITIVE_INFINITY;
  firing = true;
  const now = performance.now();
  while (heap.length > 0 && heap[0]!.at <= now) {
    const entry = pop();
    if (!entry.live) continue;
    entry.live = false;
    if (--live === 0) keepAlive(false);
    callReporting(entry.fire);
  }
  while (heap.length > 0 && !heap[0]!.live) pop();
  firing = false;
  if (heap.length > 0) arm(heap[0]!.at);
}

/** In Node, a timer with no live deadline behind it must not keep the process running (browsers have no such notion). */
function keepAlive(on: boolean): void {
  const handle = timer as { ref?: () => void; unref?: () => void } | undefined;
  if (on) handle?.ref?.();
  else handle?.unref?.();
}

function compact(): void {
  const kept = heap.filter((entry) => entry.live);
  heap.length = 0;
  for (const entry of kept) push(entry);
}

function push(entry: Entry): void {
  let i = heap.push(entry) - 1;
  while (i > 0) {
    const parent = (i - 1) >> 1;
    if (heap[parent]!.at <= entry.at) break;
    heap[i] = heap[parent]!;
    i = parent;
  }
  heap[i] = entry;
}

function pop(): Entry {
  const top = heap[0]!;
  const last = heap.pop()!;
  if (heap.length > 0) {
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= heap.length) break;
      const child = left + 1 < heap.length && heap[left + 1]!.at < heap[left]!.at ? left + 1 : left;
      if (heap[child]!.at >= last.at) break;
      heap[i] = heap[child]!;
      i = child;
    }
    heap[i] = last;
  }
  return top;
}
