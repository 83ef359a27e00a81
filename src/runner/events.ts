import { AsyncQueue } from '../util/async-queue.js';
import type { RunEvent } from '../core/run.js';

export type { RunEvent } from '../core/run.js';

type TextDelta = Extract<RunEvent, { type: 'text_delta' }>;

/** Append `text` (of `delta`) to `last` if that is an unsent text delta of the same run or leaf; whether it did. */
export function joinTextDelta(last: RunEvent | undefined, delta: TextDelta, text = delta.text): boolean {
  if (last?.type !== 'text_delta' || last.leafId !== delta.leafId) return false;
  last.text += text;
  return true;
}

/** A run's events, read once with `for await`: consecutive unread text deltas merge into one (see AsyncQueue). */
export class EventChannel extends AsyncQueue<RunEvent> {
  constructor() {
    super((last, next) => next.type === 'text_delta' && joinTextDelta(last, next));
  }
}
