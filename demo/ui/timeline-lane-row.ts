// One lane of the timeline drawn: its label (name, status, duration, a ⚠ after untrusted content)
// and its track of segment bars and marks, placed in percentages of the run's time. The legend
// says what the bars' looks mean, with the bars' own classes.
import { durationText } from './timeline-axis.js';
import { type Lane, laneStatusText, type Segment, type TimelineLayout } from './timeline-lanes.js';

/** What the bars' looks mean (the same classes as the bars, so it cannot drift). */
export function legend(into: HTMLElement): void {
  const entries: Array<[string, string]> = [
    ['seg model', 'model turn'],
    ['seg queued', 'proposed, not started'],
    ['seg approval', 'waiting for approval'],
    ['seg attempt', 'running (one bar per attempt)'],
    ['seg backoff', 'pause before a retry'],
    ['mark timeout', 'timed out'],
    ['mark failure', 'failed'],
    ['untrusted-flag', 'after untrusted content (⚠)'],
  ];
  for (const [className, text] of entries) {
    const swatch = document.createElement('span');
    swatch.className = `swatch ${className}`;
    const item = document.createElement('span');
    item.append(swatch, text);
    into.append(item);
  }
}

/** One lane: its label (name, status, duration) and its track of segments and marks. */
export function laneRow(lane: Lane, layout: TimelineLayout, selected: boolean): HTMLLIElement {
  const row = document.createElement('li');
  row.className = `lane ${lane.kind}`;
  row.dataset.laneId = lane.id;
  row.dataset.name = lane.name;
  row.dataset.status = lane.status;
  row.dataset.depth = String(lane.depth);
  row.dataset.start = String(lane.start);
  row.dataset.end = String(lane.end ?? layout.end);
  if (lane.parentCallId) row.dataset.parentCallId = lane.parentCallId;
  if (lane.approved !== undefined) row.dataset.approved = String(lane.approved);
  // An exposed turn (or a call it proposed): marked, and its label says what it had read.
  if (lane.untrusted) row.dataset.untrusted = lane.untrusted.join(' ');
  row.style.setProperty('--depth', String(lane.depth));
  if (selected) row.classList.add('selected');

  const label = document.createElement('button');
  label.type = 'button';
  label.className = 'lane-label';
  const end = lane.end ?? layout.end;
  label.textContent = [lane.name, laneStatusText(lane)].filter(Boolean).join(' ');
  const took = document.createElement('span');
  took.className = 'took';
  took.textContent = durationText(end - lane.start);
  label.append(' ', took);
  const read = lane.untrusted ? `; after untrusted content from ${lane.untrusted.join(', ')}` : '';
  label.title = `${lane.name}: ${laneStatusText(lane) || 'model reply'}, ${durationText(end - lane.start)}${read}`;
  if (lane.untrusted) {
    const flag = document.createElement('span');
    flag.className = 'untrusted-flag';
    flag.textContent = '⚠';
    flag.setAttribute('aria-label', `after untrusted content from ${lane.untrusted.join(', ')}`);
    label.prepend(flag, ' ');
  }
  label.setAttribute('aria-pressed', String(selected));

  const track = document.createElement('div');
  track.className = 'track';
  const span = Math.max(layout.end - layout.start, 1);
  const x = (at: number) => `${(100 * (at - layout.start)) / span}%`;
  for (const segment of lane.segments) track.append(segmentBar(segment, layout, x, span));
  for (const mark of lane.marks) {
    const pin = document.createElement('span');
    pin.className = `mark ${mark.kind}`;
    pin.dataset.kind = mark.kind;
    pin.style.left = x(mark.at);
    pin.title = mark.code;
    track.append(pin);
  }
  row.append(label, track);
  return row;
}

/** One segment's bar on the track, from its start to its end (the axis' end while it goes on). */
function segmentBar(segment: Segment, layout: TimelineLayout, x: (at: number) => string, span: number): HTMLSpanElement {
  const bar = document.createElement('span');
  bar.className = `seg ${segment.kind}`;
  bar.dataset.kind = segment.kind;
  const end = segment.end ?? layout.end;
  bar.dataset.start = String(segment.start);
  bar.dataset.end = String(end);
  if (segment.end === undefined) bar.classList.add('open');
  bar.style.left = x(segment.start);
  bar.style.width = `${(100 * (end - segment.start)) / span}%`;
  const what = segment.kind === 'attempt' ? `attempt ${segment.attempt}` : segment.kind === 'approval' ? 'waiting for approval' : segment.kind;
  bar.title = `${what}: ${durationText(end - segment.start)}`;
  return bar;
}
