import { openDB as idbOpenDB } from 'idb';

/**
 * The browser queues the opens of one database: a request waits until the one before it is
 * answered, and is never told `blocked` while it waits. An open given up on as blocked stays
 * first in that queue until the connection blocking it closes, so a plain retry would wait
 * forever, silently, while the other tab stays open. Here each open is remembered until the
 * browser answers it, and a retry waits for the earlier one, bounded like a blocked open.
 */
const unanswered = new Map<string, Promise<void>>();

/** idb's `openDB`, remembered until the browser answers it. */
export const openDB: typeof idbOpenDB = (name, ...rest) => {
  const request = idbOpenDB(name, ...rest);
  const answered = request.then(
    () => {},
    () => {},
  );
  unanswered.set(name, answered);
  void answered.then(() => {
    if (unanswered.get(name) === answered) unanswered.delete(name);
  });
  return request;
};

/**
 * `open()` once no earlier open of `name` from this realm is still unanswered; if one still
 * is after `waitMs`, rejects with `blocked()` instead (and never calls `open`).
 */
export function afterEarlierOpens<T>(name: string, waitMs: number, blocked: () => Error, open: () => Promise<T>): Promise<T> {
  const earlier = unanswered.get(name);
  if (!earlier) return open();
  return new Promise<T>((resolve, reject) => {
    let waiting = true;
    const timer = setTimeout(() => {
      waiting = false;
      reject(blocked());
    }, waitMs);
    void earlier.then(() => {
      if (!waiting) return;
      clearTimeout(timer);
      open().then(resolve, reject);
    });
  });
}
