import type { AmbiError } from '../errors/ambi-error.js';
import type { Run } from '../runner/chat-runner.js';
import { EventChannel } from '../runner/events.js';

const ignore = () => {};

/** A run refused before it started: its one event says why, and its result rejects with the same error. */
export function refusedRun(runId: string, error: AmbiError): Run {
  const channel = new EventChannel();
  channel.push({ type: 'run_failed', error: { code: error.code, message: error.message } });
  channel.close();
  const result = Promise.reject(error);
  result.catch(() => {});
  return { runId, events: channel, result, abort: ignore, approve: ignore, deny: ignore };
}
