import type { Client } from '@modelcontextprotocol/client';
import { McpError } from '../../errors/mcp-error.js';
import { ToolError } from '../../errors/tool-error.js';
import { errorMessage } from '../../errors/error-message.js';
import { delay } from '../../util/delay.js';
import type { McpCallResult } from '../tool-output.js';
import { acknowledgementSchema, type McpTask, taskSchema } from './task-wire.js';

/** What following a task needs of its call. */
export interface FollowOptions {
  /** The call's signal: its abort (the run's, or the tool's timeout) cancels the task. */
  signal: AbortSignal;
  /** Each `tasks/get` is given this long (the tool's own timeout bounds the whole). */
  requestTimeoutMs: number;
  /** The task's status as it changes: `progress` counts the changes seen. */
  onprogress: (progress: { progress: number; message?: string }) => void;
  /** Takes the credentials out of a server's text. */
  hide: (text: string) => string;
}

/** The interval the server may ask for is kept within these bounds: a server cannot make the client poll in a loop. */
export const MIN_POLL_MS = 250;
export const MAX_POLL_MS = 30_000;
/** Without the server's advice: 500 ms, growing by half each time, up to 5 s. */
const FIRST_POLL_MS = 500;
const BACKOFF_CAP_MS = 5_000;
/** Polls that fail in a row (the server away) before the call fails `mcp_unavailable`. */
const MAX_FAILED_POLLS = 3;
/** How long a cancellation may take to send: the abort itself never waits on the server. */
const CANCEL_TIMEOUT_MS = 5_000;
/** The longest status message a progress event repeats. */
const MAX_STATUS_CHARS = 500;

/**
 * Follow a task the server answered a `tools/call` with, to its end (SEP-2663): `tasks/get` at
 * the server's `pollIntervalMs` (kept within 250 ms – 30 s) or with backoff, each new status
 * reported as progress, the result of a `completed` task returned as the call's. A `failed` or
 * `cancelled` task is the tool's failure (`tool_error`); an abort sends `tasks/cancel` (not
 * waited for) and rejects with the signal's reason. `input_required` is not answered yet: the
 * task is cancelled and the call fails, saying so.
 */
export async function followTask(client: Client, toolName: string, first: McpTask, options: FollowOptions): Promise<McpCallResult> {
  const { signal } = options;
  const cancel = () =>
    void client.request({ method: 'tasks/cancel', params: { taskId: first.taskId } }, acknowledgementSchema, { timeout: CANCEL_TIMEOUT_MS }).catch(() => {});
  const stop = () => cancel();
  if (signal.aborted) {
    cancel();
    throw signal.reason;
  }
  signal.addEventListener('abort', stop, { once: true });
  try {
    let task = first;
    let said = '';
    let changes = 0;
    let failedPolls = 0;
    let backoff = FIRST_POLL_MS;
    for (;;) {
      const status = `${task.status}: ${task.statusMessage ?? ''}`;
      if (status !== said) {
        said = status;
        changes += 1;
        const message = task.statusMessage === undefined ? undefined : options.hide(task.statusMessage).slice(0, MAX_STATUS_CHARS);
        options.onprogress({ progress: changes, ...(message !== undefined ? { message } : {}) });
      }
      const ended = outcome(task, toolName, options.hide, cancel);
      if (ended) return ended;
      const wait = task.pollIntervalMs !== undefined ? Math.min(MAX_POLL_MS, Math.max(MIN_POLL_MS, task.pollIntervalMs)) : backoff;
      backoff = Math.min(BACKOFF_CAP_MS, backoff * 1.5);
      if (!(await delay(wait, signal))) throw signal.reason;
      try {
        const next = await client.request({ method: 'tasks/get', params: { taskId: first.taskId } }, taskSchema, { signal, timeout: options.requestTimeoutMs });
        if (next.taskId !== first.taskId)
          throw new McpError('invalid_output', `Tool "${toolName}": the server answered tasks/get for another task than the one it created`);
        task = next;
        failedPolls = 0;
      } catch (error) {
        if (signal.aborted) throw signal.reason;
        if (error instanceof McpError) throw error;
        if (++failedPolls >= MAX_FAILED_POLLS)
          throw new McpError('mcp_unavailable', `Tool "${toolName}": the server stopped answering about its task (${options.hide(errorMessage(error))})`);
      }
    }
  } finally {
    signal.removeEventListener('abort', stop);
  }
}

/** The call's end, where the task has one. */
function outcome(task: McpTask, toolName: string, hide: (text: string) => string, cancel: () => void): McpCallResult | undefined {
  switch (task.status) {
    case 'completed':
      return task.result as McpCallResult;
    case 'failed':
      throw new ToolError(`Tool "${toolName}" failed on the server: ${hide(String(task.error?.message ?? 'no reason given'))}`);
    case 'cancelled':
      throw new ToolError(`Tool "${toolName}": the server cancelled its task${task.statusMessage ? ` (${hide(task.statusMessage)})` : ''}`);
    case 'input_required':
      cancel();
      throw new ToolError(`Tool "${toolName}": the server asked for input during its task, which this client does not answer yet; the task was cancelled`);
    default:
      return undefined;
  }
}
