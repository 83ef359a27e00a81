// Reading a run's events, and the order of events the runner tests expect.
import type { RunEvent } from '../../src/index.js';

/** Every event of a run, in order; `onEvent` sees each as it arrives (to approve, abort or start another run). */
export async function collect(run: { events: AsyncIterable<RunEvent> }, onEvent?: (event: RunEvent) => void): Promise<RunEvent[]> {
  const events: RunEvent[] = [];
  for await (const event of run.events) {
    events.push(event);
    onEvent?.(event);
  }
  return events;
}

/**
 * The event types of a run whose model says something, makes one call (of a tool that does not
 * start early), then answers (text deltas merged; one `usage` as each model request ends).
 */
export const ONE_CALL_EVENT_TYPES = [
  'run_started',
  'text_delta',
  'tool_call',
  'usage',
  'tool_started',
  'tool_finished',
  'iteration_finished',
  'text_delta',
  'usage',
  'iteration_finished',
  'run_finished',
];
