import type { AmbiError } from '../../errors/ambi-error.js';
import type { Run } from '../../runner/chat-runner.js';
import { EventChannel } from '../../runner/events.js';
import { runFailure } from '../../runner/run-failure.js';

const ignore = () => {};

/** A run refused before it started: its one event says why, and its result rejects with the same error. */
export function refusedRun<T = unknown>(runId: string, error: AmbiError): Run<T> {
  const channel = new EventChannel();
  channel.push({ type: 'run_failed', error: runFailure(error) });
  channel.close();
  const result: Promise<never> = Promise.reject(error);
  result.catch(() => {});
  const respond = () => Promise.reject(error);
  return { runId, events: channel, result, abort: ignore, suspend: ignore, approve: ignore, deny: ignore, respond };
}
