// The assistant panel's parts on the page that every step of a run writes to: the chat, the model
// status line, and the run timeline (made on first use, so a page without a run draws none early).
import { RunTimeline } from './timeline.js';
import type { StampedEvent } from './timeline-lanes.js';

/** The chat list: the person's questions, the answers, calls, cards and errors. */
export const chat = () => document.querySelector<HTMLOListElement>('#chat')!;

let drawn: RunTimeline | undefined;
/** The run timeline panel (made on first use). */
export const timeline = () => (drawn ??= new RunTimeline(document.querySelector<HTMLElement>('#timeline')!));

/** Draw again the rows a page before this one showed of the run about to be resumed. */
export function restoreTimeline(events: readonly StampedEvent[]): void {
  timeline().restore(events);
}

const modelStatus = () => document.querySelector<HTMLElement>('#model-status')!;

/** Say what the model is doing before it speaks (downloading, loading); undefined hides the line. */
export function showStatus(text: string | undefined): void {
  modelStatus().hidden = text === undefined;
  modelStatus().textContent = text ?? '';
}
