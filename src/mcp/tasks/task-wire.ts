/*
 * The Tasks extension (`io.modelcontextprotocol/tasks`, MCP 2026-07-28, SEP-2663) as far as this
 * client speaks it: the wire shapes and their checks. Types and a Standard Schema only; the
 * client package has no Tasks support, so `tasks/get` and `tasks/cancel` go through its
 * low-level `request()` with these schemas.
 */
import type { StandardSchemaV1 } from '@modelcontextprotocol/client';

/** The extension's identifier, declared in the client's capabilities (sent with every request). */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** Where a `tools/call` answered with a task carries it, once the transport adapter (task-results) has turned it into a result the client accepts. */
export const TASK_META = 'ambi-web/task';

export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** A task as `tasks/get` (or the `CreateTaskResult`) gives it. */
export interface McpTask {
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  createdAt?: string;
  lastUpdatedAt?: string;
  ttlMs?: number | null;
  pollIntervalMs?: number;
  /** `completed`: what `tools/call` would have returned. */
  result?: Record<string, unknown>;
  /** `failed`: the JSON-RPC error. */
  error?: { code?: number; message?: string; [key: string]: unknown };
  /** `input_required`: the server's requests. */
  inputRequests?: Record<string, unknown>;
}

const STATUSES: ReadonlySet<unknown> = new Set(['working', 'input_required', 'completed', 'failed', 'cancelled']);
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** What is wrong with `value` as a task, or undefined when it is one. */
export function taskProblem(value: unknown): string | undefined {
  if (!isObject(value)) return 'not an object';
  if (typeof value.taskId !== 'string' || value.taskId === '') return 'no taskId';
  if (!STATUSES.has(value.status)) return `unknown status ${JSON.stringify(value.status)?.slice(0, 40)}`;
  if (value.statusMessage !== undefined && typeof value.statusMessage !== 'string') return 'statusMessage is not text';
  if (value.pollIntervalMs !== undefined && typeof value.pollIntervalMs !== 'number') return 'pollIntervalMs is not a number';
  if (value.status === 'completed' && !isObject(value.result)) return 'a completed task without its result';
  if (value.status === 'failed' && !isObject(value.error)) return 'a failed task without its error';
  return undefined;
}

/** `tasks/get`'s result, checked. */
export const taskSchema: StandardSchemaV1<unknown, McpTask> = {
  '~standard': {
    version: 1,
    vendor: 'ambi-web',
    validate: (value) => {
      const problem = taskProblem(value);
      return problem === undefined ? { value: value as McpTask } : { issues: [{ message: `not a task: ${problem}` }] };
    },
  },
};

/** `tasks/cancel`'s (empty) acknowledgement. */
export const acknowledgementSchema: StandardSchemaV1<unknown, Record<string, unknown>> = {
  '~standard': {
    version: 1,
    vendor: 'ambi-web',
    validate: (value) => (isObject(value) ? { value } : { issues: [{ message: 'not an object' }] }),
  },
};
