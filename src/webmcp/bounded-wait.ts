import { InvalidOptionError } from '../errors/invalid-option-error.js';
import { WebMcpError } from '../errors/webmcp-error.js';

/** How long a WebMCP call may take to settle by default (the load wait included). */
export const DEFAULT_WAIT_MS = 5_000;

/** `waitMs` checked: a positive number of milliseconds. */
export function checkWaitMs(value: unknown): number {
  if (value === undefined) return DEFAULT_WAIT_MS;
  if (typeof value === 'number' && Number.isFinite(value) && value > 0) return value;
  throw new InvalidOptionError('waitMs', `must be a positive number of milliseconds, not ${String(value)}`);
}

/**
 * Run `start` once the document has loaded and wait for it, all within `waitMs`; past that,
 * reject with `webmcp_timeout`. Chromium's WebMCP calls made in a document's first
 * moments sometimes never settle, while after the load they answer at once.
 */
export async function afterLoadWithin<T>(what: string, waitMs: number, start: () => Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new WebMcpError('webmcp_timeout', `${what} did not settle within ${waitMs} ms`)), waitMs);
  });
  try {
    return await Promise.race([documentLoaded().then(start), expired]);
  } finally {
    clearTimeout(timer);
  }
}

/** Resolves once the document's `load` has fired (at once if it has). */
function documentLoaded(): Promise<void> {
  if (document.readyState === 'complete') return Promise.resolve();
  return new Promise((resolve) => window.addEventListener('load', () => resolve(), { once: true }));
}
