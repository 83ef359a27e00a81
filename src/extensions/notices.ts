import type { RunEvent } from '../core/run.js';
import type { RunExtension } from '../runner/extension.js';
import type { RunSetup } from '../runner/run-setup.js';

/** Where an agent's notices come from: what happened outside any run (an MCP server withdrew a tool). */
export interface NoticeSource {
  /** Receive the notices (first those no run has seen yet) until the returned function is called. */
  observe(observer: (event: RunEvent) => void): () => void;
}

/** Notices from outside the run (an MCP tool withdrawn, say) reach a top-level run as its events, from its start to its end. */
export function noticesExtension(setup: RunSetup, source: NoticeSource): RunExtension {
  let unobserve: (() => void) | undefined;
  return {
    name: 'notices',
    event(event) {
      if (event.type === 'run_started' && !unobserve) queueMicrotask(() => (unobserve ??= source.observe(setup.emit)));
      return event;
    },
    end() {
      unobserve?.();
      unobserve = () => {};
    },
  };
}
