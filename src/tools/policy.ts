import type { ToolPolicy } from './types.js';

/** Ambi's defaults, made exact: 15 s per attempt, 3 retries after a timeout, 500 ms apart. */
export const DEFAULT_POLICY: Omit<ToolPolicy, 'idempotent'> = Object.freeze({
  timeoutMs: 15_000,
  maxRetries: 3,
  retryDelayMs: 500,
});

/** OpenAI-compatible servers accept tool names of this shape, so we accept no other. */
export const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;
