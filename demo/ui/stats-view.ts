// csv_stats results in the data panel, where the person looks: a table, built as text.
import type { ToolResult } from 'ambi-web/worker';

interface ColumnStats {
  column: unknown;
  count: unknown;
  mean: unknown;
  min: unknown;
  max: unknown;
  stddev: unknown;
}

const HEADINGS = ['column', 'count', 'mean', 'min', 'max', 'stddev'] as const;
/** Watches the table shown now, to show its scroll cue only while it is wider than its panel. */
let watching: ResizeObserver | undefined;

/** Show a finished csv_stats call in the data panel (a failure says why); other results are ignored. */
export function showStats(result: ToolResult): void {
  if (result.name !== 'csv_stats') return;
  const panel = document.querySelector<HTMLElement>('#stats')!;
  panel.hidden = false;
  if (!result.ok) {
    panel.dataset.status = 'failed';
    panel.replaceChildren(text('p', `The statistics could not be computed (${result.error.code}): ${result.error.message}`));
    return;
  }
  const output = result.output as { rows?: unknown; columns?: unknown; computedIn?: unknown } | null;
  const columns = Array.isArray(output?.columns) ? (output.columns as ColumnStats[]) : [];
  panel.dataset.status = 'done';
  const table = document.createElement('table');
  const head = document.createElement('tr');
  head.append(...HEADINGS.map((heading) => text('th', heading)));
  table.append(head);
  for (const column of columns) {
    const row = document.createElement('tr');
    row.append(...HEADINGS.map((key) => text('td', String(column?.[key] ?? ''))));
    table.append(row);
  }
  // Wider than the panel (a phone): the table scrolls sideways, and a line says so.
  const scroller = document.createElement('div');
  scroller.className = 'table-scroll';
  scroller.tabIndex = 0; // scrollable with the keyboard too
  scroller.setAttribute('role', 'region');
  scroller.setAttribute('aria-label', 'Statistics (scrolls sideways)');
  scroller.append(table);
  const cue = text('p', 'Scroll the table sideways for its other columns →');
  cue.className = 'scroll-cue';
  panel.replaceChildren(
    text('p', `Statistics of ${String(output?.rows ?? '?')} rows, computed in the ${String(output?.computedIn ?? '?')} by csv_stats:`),
    scroller,
    cue,
  );
  const showCue = () => {
    cue.hidden = scroller.scrollWidth <= scroller.clientWidth + 1;
  };
  showCue();
  watching?.disconnect();
  watching = new ResizeObserver(showCue);
  watching.observe(scroller);
}

function text(tag: string, value: string): HTMLElement {
  const element = document.createElement(tag);
  element.textContent = value;
  return element;
}
