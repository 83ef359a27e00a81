// The demo's timeline as drawn in a real page (demo/ui/timeline.ts): what the walkthrough cannot
// show on its own (a timed-out attempt, its retry, a failure) and text from a model kept as text.
import { afterEach, describe, expect, it } from 'vitest';
import type { RunEvent } from '../../src/index.js';
import { RunTimeline } from '../../demo/ui/timeline.js';

const frame = () => new Promise((resolve) => requestAnimationFrame(() => resolve(undefined)));

let root: HTMLElement;
let mounted: RunTimeline;
// Reset stops a running timeline's redraw clock.
afterEach(() => {
  mounted.reset();
  root.remove();
});

function mount(): RunTimeline {
  root = document.createElement('div');
  document.body.append(root);
  mounted = new RunTimeline(root);
  return mounted;
}

describe('the demo timeline, drawn', () => {
  it('draws each attempt of a retried call, the pause between them, and marks the timeout and the failure', async () => {
    const timeline = mount();
    const events: RunEvent[] = [
      { type: 'run_started', runId: 'r', input: 'go' },
      { type: 'tool_call', call: { id: 'c', name: 'slow_tool', arguments: { n: 1 } } },
      { type: 'tool_started', callId: 'c', name: 'slow_tool', attempt: 1 },
      { type: 'tool_retry', callId: 'c', name: 'slow_tool', attempt: 1, nextAttempt: 2, delayMs: 5 },
      { type: 'tool_started', callId: 'c', name: 'slow_tool', attempt: 2 },
      {
        type: 'tool_finished',
        result: { id: 'c', name: 'slow_tool', ok: false, error: { code: 'timeout', message: 'took too long' }, attempts: 2, durationMs: 9 },
      },
      { type: 'iteration_finished', iteration: 1, finishReason: 'tool_calls', toolCalls: 1 },
      { type: 'run_failed', error: { code: 'aborted', message: 'Stopped' } } as RunEvent,
    ];
    for (const event of events) timeline.push(event);
    await frame();
    const lane = root.querySelector<HTMLElement>('li.lane.call')!;
    expect(lane.dataset.status).toBe('failed');
    expect([...lane.querySelectorAll<HTMLElement>('.seg')].map((seg) => seg.dataset.kind)).toEqual(['queued', 'attempt', 'backoff', 'attempt']);
    expect(lane.querySelectorAll('.mark[data-kind="timeout"]')).toHaveLength(2);
    expect(lane.querySelector('.lane-label')!.textContent).toContain('slow_tool failed: timeout');
    expect(root.querySelector('.timeline-status')!.textContent).toMatch(/^run failed: aborted · 1 call · /);
    expect(root.dataset.status).toBe('failed');
  });

  it('shows a call it is clicked on as text, whatever HTML the model put in its name and arguments', async () => {
    const timeline = mount();
    const html = '<img src=x onerror="window.__timelinePwned = true"><b>bold</b>';
    timeline.push({ type: 'run_started', runId: 'r', input: 'go' });
    timeline.push({ type: 'tool_call', call: { id: 'x', name: html, arguments: { html } } });
    timeline.push({
      type: 'tool_finished',
      result: { id: 'x', name: html, ok: false, error: { code: 'unknown_tool', message: html }, attempts: 0, durationMs: 0 },
    });
    await frame();
    root.querySelector<HTMLElement>('li.lane.call .track')!.click();
    const detail = root.querySelector<HTMLElement>('.timeline-detail')!;
    expect(detail.hidden).toBe(false);
    expect(detail.querySelector('h4')!.textContent).toBe(`${html} (x)`);
    expect(JSON.parse(detail.querySelector('.detail-arguments')!.textContent!)).toEqual({ html });
    expect(detail.querySelector('.detail-result')!.textContent).toBe(html);
    expect(root.querySelectorAll('img, b')).toHaveLength(0);
    expect((window as { __timelinePwned?: boolean }).__timelinePwned).toBeUndefined();
  });

  it("keeps the focus on a row's label while the running timeline redraws", async () => {
    const timeline = mount();
    timeline.push({ type: 'run_started', runId: 'r', input: 'go' });
    timeline.push({ type: 'tool_started', callId: 'a', name: 'search_notes', attempt: 1 });
    await frame();
    root.querySelector<HTMLButtonElement>('li.lane.call .lane-label')!.focus();
    timeline.push({ type: 'tool_started', callId: 'b', name: 'read_page', attempt: 1 });
    await frame();
    expect(document.activeElement?.closest<HTMLElement>('li.lane')?.dataset.laneId).toBe('a');
  });

  it('redraws a running timeline in place: a waiting call keeps its row, bar and detail nodes, and a selection in the detail stays', async () => {
    const timeline = mount();
    timeline.push({ type: 'run_started', runId: 'r', input: 'go' });
    timeline.push({ type: 'tool_call', call: { id: 'd', name: 'delete_note', arguments: { id: 'groceries' } } });
    timeline.push({ type: 'approval_requested', call: { id: 'd', name: 'delete_note', arguments: { id: 'groceries' } } });
    await frame();
    const row = root.querySelector<HTMLElement>('li.lane.call')!;
    row.querySelector<HTMLElement>('.track')!.click();
    await frame();
    const bar = row.querySelector<HTMLElement>('.seg.approval')!;
    const args = root.querySelector<HTMLElement>('.timeline-detail .detail-arguments')!;
    getSelection()!.selectAllChildren(args);
    const end = row.dataset.end;
    // The redraw clock moves the open bar's end: wait for two redraws after this one.
    await expect.poll(() => root.querySelector<HTMLElement>('li.lane.call')?.dataset.end, { timeout: 5_000 }).not.toBe(end);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(root.querySelector('li.lane.call')).toBe(row);
    expect(row.querySelector('.seg.approval')).toBe(bar);
    expect(root.querySelector('.timeline-detail .detail-arguments')).toBe(args);
    expect(getSelection()!.toString()).toBe(JSON.stringify({ id: 'groceries' }, null, 2));
    // A call proposed later adds its row; the waiting one is still the same node, updated when it is answered.
    timeline.push({ type: 'tool_call', call: { id: 'e', name: 'read_page', arguments: {} } });
    timeline.push({ type: 'approval_resolved', callId: 'd', approved: true });
    await frame();
    expect([...root.querySelectorAll<HTMLElement>('li.lane.call')].map((lane) => lane.dataset.name)).toEqual(['delete_note', 'read_page']);
    expect(root.querySelector('li.lane.call')).toBe(row);
    expect(row.dataset.status).toBe('queued');
    expect(row.dataset.approved).toBe('true');
    expect(row.querySelector('.lane-label')!.textContent).toContain('delete_note approved');
  });

  it('redraws live: a call that is still running is shown running, then finished', async () => {
    const timeline = mount();
    timeline.push({ type: 'run_started', runId: 'r', input: 'go' });
    timeline.push({ type: 'tool_started', callId: 'a', name: 'search_notes', attempt: 1 });
    await frame();
    expect(root.querySelector<HTMLElement>('li.lane.call')!.dataset.status).toBe('running');
    expect(root.querySelector('li.lane.call .seg.open')).not.toBeNull();
    timeline.push({ type: 'tool_finished', result: { id: 'a', name: 'search_notes', ok: true, output: [], attempts: 1, durationMs: 1 } });
    await frame();
    expect(root.querySelector<HTMLElement>('li.lane.call')!.dataset.status).toBe('done');
    expect(root.querySelector('li.lane.call .seg.open')).toBeNull();
    timeline.reset();
    expect(root.querySelectorAll('li.lane')).toHaveLength(0);
    expect(root.querySelector('.timeline-status')!.textContent).toBe('No run yet.');
  });
});
