// The timeline's status line: what the run is doing, how many calls it made, how long it took and
// what it cost in tokens.
import { durationText } from './timeline-axis.js';
import type { TimelineLayout } from './timeline-lanes.js';

/** `run finished · 3 calls · 1.2 s · 120 tokens in 8 requests`, or `No run yet.` */
export function statusText(layout: TimelineLayout): string {
  if (layout.status === 'idle') return 'No run yet.';
  const calls = layout.lanes.filter((lane) => lane.kind === 'call').length;
  const what = layout.status === 'running' ? 'run running' : layout.status === 'finished' ? 'run finished' : `run failed: ${layout.failure}`;
  return `${what} · ${calls} ${calls === 1 ? 'call' : 'calls'} · ${durationText(layout.end - layout.start)}${tokensText(layout.tokens)}`;
}

/** ` · 120 tokens in 8 requests` (`~` where some are estimates). */
function tokensText(tokens: TimelineLayout['tokens']): string {
  if (!tokens) return '';
  return ` · ${tokens.estimated ? '~' : ''}${tokens.total.toLocaleString('en')} tokens in ${tokens.requests} ${tokens.requests === 1 ? 'request' : 'requests'}`;
}
