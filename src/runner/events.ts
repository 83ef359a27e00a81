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

type Progress = Extract<RunEvent, { type: 'tool_progress' }>;

/**
 * A run's events, read once with `for await`: consecutive unread text deltas merge into one,
 * and a call's progress replaces its progress not read yet (see AsyncQueue): what a model or a
 * server sends cannot grow the buffer of a run nobody reads.
 */
export class EventChannel extends AsyncQueue<RunEvent> {
  constructor() {
    super((unread, next) => (next.type === 'text_delta' ? joinTextDelta(unread.at(-1), next) : next.type === 'tool_progress' && replaceProgress(unread, next)));
  }
}

/** Put `next` in place of the unread progress of its call, if there is one (newest first); whether it did. */
function replaceProgress(unread: readonly RunEvent[], next: Progress): boolean {
  for (let at = unread.length - 1; at >= 0; at--) {
    const event = unread[at]!;
    if (event.type !== 'tool_progress' || event.callId !== next.callId || event.leafId !== next.leafId) continue;
    delete event.total;
    delete event.message;
    Object.assign(event, next);
    return true;
  }
  return false;
}
