// The run timeline across a reload: while a run goes on (or waits for the person), the page keeps
// its events in sessionStorage as it goes away; the next page, resuming that run in the same
// conversation, draws them again before the resumed run's own, so the rows from before the reload
// stay. Times are kept as wall-clock times and put back on the new page's clock (before its start:
// below zero), so old and new rows share one axis. Anything unreadable is dropped, never drawn.
import { readRunFile } from './run-file.js';
import type { StampedEvent } from './timeline-lanes.js';

const KEY = 'ambi-demo:timeline';

interface Kept {
  conversation: string;
  /** `performance.timeOrigin` of the page that kept them: its `at` plus this is a wall-clock time. */
  origin: number;
  events: StampedEvent[];
}

/** Keep `events()` for `conversation()` when the page goes away, if `running()` (a run was cut off). */
export function keepTimelineAcrossReloads(events: () => readonly StampedEvent[], running: () => boolean, conversation: () => string): void {
  addEventListener('pagehide', () => {
    try {
      if (!running()) return sessionStorage.removeItem(KEY);
      const kept: Kept = { conversation: conversation(), origin: performance.timeOrigin, events: [...events()] };
      sessionStorage.setItem(KEY, JSON.stringify(kept));
    } catch {
      // Storage full or refused: the next page starts its timeline afresh, as it did before.
    }
  });
}

/** The events a page before this one kept for `conversation`, on this page's clock; taken once (undefined if none). */
export function takeKeptTimeline(conversation: string): StampedEvent[] | undefined {
  let text: string | null;
  try {
    text = sessionStorage.getItem(KEY);
    sessionStorage.removeItem(KEY);
  } catch {
    return undefined;
  }
  if (!text) return undefined;
  try {
    const kept = JSON.parse(text) as Partial<Kept>;
    if (kept.conversation !== conversation || typeof kept.origin !== 'number' || !Number.isFinite(kept.origin)) return undefined;
    // Checked as an opened run file is: an event that does not fit what the timeline reads is left out.
    const { events } = readRunFile(JSON.stringify({ kind: 'ambi-web-run', version: 1, events: kept.events }));
    const shift = kept.origin - performance.timeOrigin;
    return events.map(({ at, event }) => ({ at: at + shift, event }));
  } catch {
    return undefined;
  }
}
