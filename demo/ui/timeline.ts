// The run timeline: one line per event worth showing, a leaf's marked as such.
import type { RunEvent } from 'ambi-web/worker';

/** The timeline's line for `event`, if it gets one. */
export function timelineLine(event: RunEvent): string | undefined {
  const leaf = event.leafId ? `leaf ${event.leafId.slice(0, 6)}: ` : '';
  switch (event.type) {
    case 'run_started':
      return `${leaf}run started`;
    case 'tool_started':
      return `${leaf}${event.name} started${event.attempt > 1 ? ` (attempt ${event.attempt})` : ''}`;
    case 'tool_retry':
      return `${leaf}${event.name} timed out; retry in ${event.delayMs} ms`;
    case 'tool_finished':
      return `${leaf}${event.result.name} ${event.result.ok ? 'finished' : `failed: ${event.result.error.code}`}`;
    case 'approval_requested':
      return `${leaf}${event.call.name} waits for approval`;
    case 'approval_resolved':
      return `${leaf}${event.approved ? 'approved' : 'denied'}`;
    case 'format_error':
      return `${leaf}unreadable tool call fed back to the model`;
    case 'run_finished':
      return `${leaf}run finished`;
    case 'run_failed':
      return `${leaf}run failed: ${event.error.code}`;
    case 'warning':
      return `${leaf}warning (${event.code}): ${event.message}`;
    default:
      return undefined;
  }
}
