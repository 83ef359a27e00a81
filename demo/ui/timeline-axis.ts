// The timeline's time axis over the tracks, and how it writes a duration (the labels, the status
// line and the detail write theirs the same way).
import { patchChildren } from './dom-patch.js';
import type { TimelineLayout } from './timeline-lanes.js';

/** A duration in words: milliseconds under a second, else seconds to a tenth. */
export const durationText = (value: number) => (value >= 1000 ? `${(value / 1000).toFixed(1)} s` : `${Math.round(value)} ms`);

/** Time ticks over the tracks: 0, a quarter, half, three quarters, the whole run. */
export function drawAxis(axis: HTMLElement, layout: TimelineLayout): void {
  // Before any run there is no time to show: no axis at all (not five "0 ms").
  axis.hidden = layout.status === 'idle';
  if (axis.hidden) {
    axis.replaceChildren();
    return;
  }
  const ticks = document.createElement('div');
  ticks.className = 'ticks';
  for (const fraction of [0, 0.25, 0.5, 0.75, 1]) {
    const tick = document.createElement('span');
    tick.style.left = `${fraction * 100}%`;
    tick.textContent = durationText(fraction * (layout.end - layout.start));
    ticks.append(tick);
  }
  patchChildren(axis, [document.createElement('span'), ticks]);
}
