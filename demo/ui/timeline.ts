// The run timeline, drawn: one row per tool call and per model turn on a shared time axis, a
// leaf's rows nested under its spawn_leaf call. Events are stamped on receipt (they carry no time).
// Plain DOM with percentages; every piece of model or tool text goes in through textContent.
// This file holds the panel and its redraw; the rows, axis, status line and detail are drawn by
// timeline-lane-row.ts, timeline-axis.ts, timeline-status.ts and timeline-detail.ts.
import type { Cassette, RunEvent } from 'ambi-web/worker';
import { patchKeyedRows } from './dom-patch.js';
import { button } from './render.js';
import { MAX_RUN_FILE_BYTES, readRunFile, runFile } from './run-file.js';
import { drawAxis } from './timeline-axis.js';
import { showDetail } from './timeline-detail.js';
import type { StampedEvent } from './timeline-lanes.js';
import { laneRow, legend } from './timeline-lane-row.js';
import { layoutTimeline } from './timeline-layout.js';
import { statusText } from './timeline-status.js';

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
    this.#export = button('Export run', 'export-run', () => this.#download());
    tools.append(this.#export);
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

/** A part of the panel: an element of `tag` with `className`, appended to `root`. */
function part(root: HTMLElement, tag: string, className: string): HTMLElement {
  const element = document.createElement(tag);
  element.className = className;
  root.append(element);
  return element;
}
