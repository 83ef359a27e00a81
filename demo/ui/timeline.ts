// The run timeline, drawn: one row per tool call and per model turn on a shared time axis, a
// leaf's rows nested under its spawn_leaf call. Events are stamped on receipt (they carry no time).
// Plain DOM with percentages; every piece of model or tool text goes in through textContent.
import type { Cassette, RunEvent } from 'ambi-web/worker';
import { patchChildren, patchKeyedRows } from './dom-patch.js';
import { MAX_RUN_FILE_BYTES, readRunFile, runFile } from './run-file.js';
import { type Lane, laneStatusText, layoutTimeline, type Segment, type StampedEvent, type TimelineLayout } from './timeline-layout.js';

/** How often a running timeline redraws to move its open bars along (a person's eye, not a test's clock). */
const TICK_MS = 250;

/** The timeline of the current run: `push` each event as it arrives, `reset` for a new run; or a run opened from a file. */
export class RunTimeline {
  #events: StampedEvent[] = [];
  #cassette: Cassette | undefined;
  /** A run read from a file (not live): its name, and what the file held besides. */
  #opened: { name: string; dropped: number; requests: number } | undefined;
  #selected: string | undefined;
  #frame = 0;
  #tick: ReturnType<typeof setInterval> | undefined;
  readonly #status: HTMLElement;
  readonly #axis: HTMLElement;
  readonly #lanes: HTMLOListElement;
  readonly #detail: HTMLElement;
  readonly #export: HTMLButtonElement;
  readonly #problem: HTMLElement;

  constructor(readonly root: HTMLElement) {
    const tools = part(root, 'div', 'timeline-tools');
    this.#export = button(tools, 'export-run', 'Export run', () => this.#download());
    const open = document.createElement('label');
    open.className = 'open-run';
    const file = document.createElement('input');
    file.type = 'file';
    file.accept = '.json,application/json';
    file.addEventListener('change', () => {
      const chosen = file.files?.[0];
      file.value = '';
      if (chosen) void this.open(chosen);
    });
    open.append('Open a run…', file);
    tools.append(open);
    this.#problem = part(tools, 'span', 'timeline-problem');
    this.#status = part(root, 'p', 'timeline-status');
    legend(part(root, 'p', 'legend'));
    this.#axis = part(root, 'div', 'axis');
    this.#lanes = part(root, 'ol', 'lanes') as HTMLOListElement;
    this.#detail = part(root, 'section', 'timeline-detail');
    this.#detail.hidden = true;
    this.#lanes.addEventListener('click', (event) => {
      const lane = (event.target as Element).closest<HTMLElement>('li.lane');
      if (lane?.dataset.laneId) this.select(lane.dataset.laneId);
    });
    this.#draw();
  }

  /** A new run: forget the last one (or the one opened). */
  reset(): void {
    this.#events = [];
    this.#cassette = undefined;
    this.#opened = undefined;
    this.#problem.textContent = '';
    this.#selected = undefined;
    this.#draw();
  }

  /** What the runner recorded of the model's traffic: the export holds it, for replayEngine. */
  setCassette(cassette: Cassette | undefined): void {
    this.#cassette = cassette;
  }

  /** Show a run exported before (`Export run`): read and checked here, drawn as it ended. */
  async open(file: File): Promise<void> {
    this.#problem.textContent = '';
    try {
      if (file.size > MAX_RUN_FILE_BYTES) throw new Error(`This file is larger than ${MAX_RUN_FILE_BYTES / 1024 / 1024} MB`);
      const read = readRunFile(await file.text());
      this.#events = read.events;
      this.#cassette = undefined;
      this.#opened = { name: file.name, dropped: read.dropped, requests: read.requests };
      this.#selected = undefined;
      this.#draw();
    } catch (error) {
      this.#problem.textContent = `${file.name}: ${error instanceof Error ? error.message : String(error)}`;
    }
  }

  /** The run's events so far, as stamped on receipt (what a reload keeps: timeline-keep.ts). */
  get events(): readonly StampedEvent[] {
    return this.#opened ? [] : this.#events;
  }

  /** Go on from events a page before this one received (their times on this page's clock). */
  restore(events: readonly StampedEvent[]): void {
    this.reset();
    this.#events = [...events];
    this.#draw();
  }

  push(event: RunEvent): void {
    if (this.#opened) this.reset();
    this.#events.push({ at: performance.now(), event });
    // One redraw per frame however many events arrive in it.
    this.#frame ||= requestAnimationFrame(() => {
      this.#frame = 0;
      this.#draw();
    });
  }

  /** Show a lane's arguments and result below the lanes. */
  select(laneId: string): void {
    this.#selected = laneId;
    this.#draw();
  }

  /** Save the run (its events and cassette) as a JSON file. */
  #download(): void {
    const json = JSON.stringify(runFile(this.#events, this.#cassette), null, 1);
    const link = document.createElement('a');
    link.href = URL.createObjectURL(new Blob([json], { type: 'application/json' }));
    link.download = `ambi-run-${new Date().toISOString().slice(0, 19).replaceAll(':', '-')}.json`;
    link.click();
    setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
  }

  #draw(): void {
    // An opened run is over: its time ends at its last event.
    const layout = layoutTimeline(this.#events, this.#opened ? (this.#events.at(-1)?.at ?? 0) : performance.now());
    this.root.dataset.status = layout.status;
    this.root.dataset.opened = String(this.#opened !== undefined);
    this.#export.disabled = this.#events.length === 0 || this.#opened !== undefined;
    const opened = this.#opened;
    const from = opened
      ? `Opened ${opened.name}${opened.requests > 0 ? ` (cassette: ${opened.requests} model requests)` : ''}${opened.dropped > 0 ? `, ${opened.dropped} unreadable events left out` : ''}: `
      : '';
    this.#status.textContent = from + statusText(layout);
    drawAxis(this.#axis, layout);
    // Each row is patched, never replaced (dom-patch.ts): a row under the pointer, focused or
    // selected stays the same node through the redraws of a run, however long its card waits.
    patchKeyedRows(
      this.#lanes,
      layout.lanes.map((lane) => laneRow(lane, layout, lane.id === this.#selected)),
      'laneId',
    );
    const chosen = layout.lanes.find((lane) => lane.id === this.#selected);
    this.#detail.hidden = !chosen;
    if (chosen) showDetail(this.#detail, chosen);
    // While something runs, the open bars grow with time (not in a run read from a file).
    if (layout.status === 'running' && !opened) this.#tick ??= setInterval(() => this.#draw(), TICK_MS);
    else if (this.#tick !== undefined) {
      clearInterval(this.#tick);
      this.#tick = undefined;
    }
  }
}

function part(root: HTMLElement, tag: string, className: string): HTMLElement {
  const element = document.createElement(tag);
  element.className = className;
  root.append(element);
  return element;
}

/** What the bars' looks mean (the same classes as the bars, so it cannot drift). */
function legend(into: HTMLElement): void {
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

/** Time ticks over the tracks: 0, a quarter, half, three quarters, the whole run. */
function drawAxis(axis: HTMLElement, layout: TimelineLayout): void {
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
    tick.textContent = ms(fraction * (layout.end - layout.start));
    ticks.append(tick);
  }
  patchChildren(axis, [document.createElement('span'), ticks]);
}

function statusText(layout: TimelineLayout): string {
  if (layout.status === 'idle') return 'No run yet.';
  const calls = layout.lanes.filter((lane) => lane.kind === 'call').length;
  const what = layout.status === 'running' ? 'run running' : layout.status === 'finished' ? 'run finished' : `run failed: ${layout.failure}`;
  return `${what} · ${calls} ${calls === 1 ? 'call' : 'calls'} · ${ms(layout.end - layout.start)}${tokensText(layout.tokens)}`;
}

/** ` · 120 tokens in 8 requests` (`~` where some are estimates). */
function tokensText(tokens: TimelineLayout['tokens']): string {
  if (!tokens) return '';
  return ` · ${tokens.estimated ? '~' : ''}${tokens.total.toLocaleString('en')} tokens in ${tokens.requests} ${tokens.requests === 1 ? 'request' : 'requests'}`;
}

function button(into: HTMLElement, className: string, label: string, onClick: () => void): HTMLButtonElement {
  const element = document.createElement('button');
  element.type = 'button';
  element.className = className;
  element.textContent = label;
  element.addEventListener('click', onClick);
  into.append(element);
  return element;
}

const ms = (value: number) => (value >= 1000 ? `${(value / 1000).toFixed(1)} s` : `${Math.round(value)} ms`);

/** One lane: its label (name, status, duration) and its track of segments and marks. */
function laneRow(lane: Lane, layout: TimelineLayout, selected: boolean): HTMLLIElement {
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
  took.textContent = ms(end - lane.start);
  label.append(' ', took);
  const read = lane.untrusted ? `; after untrusted content from ${lane.untrusted.join(', ')}` : '';
  label.title = `${lane.name}: ${laneStatusText(lane) || 'model reply'}, ${ms(end - lane.start)}${read}`;
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
  bar.title = `${what}: ${ms(end - segment.start)}`;
  return bar;
}

/** The chosen lane's arguments and result, as text. */
function showDetail(detail: HTMLElement, lane: Lane): void {
  const heading = document.createElement('h4');
  heading.textContent = `${lane.name}${lane.kind === 'call' ? ` (${lane.id})` : ''}`;
  const parts: HTMLElement[] = [heading];
  const block = (title: string, className: string, value: string) => {
    const caption = document.createElement('h5');
    caption.textContent = title;
    const pre = document.createElement('pre');
    pre.className = className;
    pre.textContent = value;
    parts.push(caption, pre);
  };
  if (lane.kind === 'call') {
    block('Arguments', 'detail-arguments', pretty(lane.arguments));
    const result = lane.result;
    if (!result) block('Result', 'detail-result', laneStatusText(lane));
    else if (result.ok)
      block(`Result (${result.attempts} ${result.attempts === 1 ? 'attempt' : 'attempts'}, ${ms(result.durationMs)})`, 'detail-result', pretty(result.output));
    else block(`Failed (${result.error.code})`, 'detail-result', result.error.message);
  } else {
    block('Model turn', 'detail-result', `${ms((lane.end ?? lane.start) - lane.start)} from the request to the reply's last part`);
  }
  patchChildren(detail, parts);
}

function pretty(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}
