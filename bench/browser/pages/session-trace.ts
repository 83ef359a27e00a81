// Tracing of one thread's side of a worker channel, for the worker-dispatch breakdown: every
// message posted on it or received from it, when its handling ended (microtasks included),
// and every timer task. Times are `timeOrigin + now()`, comparable across the page and its
// workers. Used only by traced copies of the loops, never by the timed ones.

/** `[what, kind, at]`: `kind` is a session message's kind, else the message's `type`, else `other`. */
export type TraceRecord = [what: 'in' | 'out' | 'end' | 'timer', kind: string, at: number];

type Target = Pick<Worker, 'postMessage' | 'addEventListener'>;

const now = () => performance.timeOrigin + performance.now();

/** A page-tool call's messages by their first element (CALL, ANSWERED, FAILED in src/worker/wire/protocol.ts): the answer is `done`. */
const SESSION_KINDS = ['call', 'done', 'failed'];

function kindOf(data: unknown): string {
  if (Array.isArray(data)) return SESSION_KINDS[data[0] as number] ?? 'other';
  if (typeof data !== 'object' || data === null) return 'other';
  const fields = data as Record<string, unknown>;
  return typeof fields.type === 'string' ? fields.type : 'other';
}

/** The control message that asks a traced worker for its log (it never reaches the code under trace). */
export const COLLECT = 'bench-trace:collect';

export interface Tracer {
  log: TraceRecord[];
  /** Add the listener that stamps `end`: call once the traced code has added its own. */
  last(): void;
  /** On the page: the traced worker's log (asked for and answered past every other listener). */
  collect(): Promise<TraceRecord[]>;
}

/**
 * Trace `target` from now on. Call before the traced code adds its listeners (so `in` is
 * stamped before it runs), then `last()` after it has (so `end` follows its handling).
 */
export function traceTarget(target: Target): Tracer {
  const log: TraceRecord[] = [];
  const post = target.postMessage.bind(target) as (message: unknown) => void;
  (target as { postMessage: unknown }).postMessage = (message: unknown, transfer?: Transferable[]) => {
    log.push(['out', kindOf(message), now()]);
    (post as (message: unknown, transfer: Transferable[]) => void)(message, transfer ?? []);
  };
  let collected: ((log: TraceRecord[]) => void) | undefined;
  target.addEventListener('message', (event: MessageEvent) => {
    const data = (event as MessageEvent<Record<string, unknown> | null>).data;
    if (data?.[COLLECT] === undefined) return void log.push(['in', kindOf(data), now()]);
    event.stopImmediatePropagation();
    if (collected) collected(data[COLLECT] as TraceRecord[]);
    else post({ [COLLECT]: log.splice(0) });
  });
  return {
    log,
    last: () => target.addEventListener('message', (event: MessageEvent) => void log.push(['end', kindOf(event.data), now()])),
    collect: () =>
      new Promise((resolve) => {
        collected = resolve;
        post({ [COLLECT]: true });
      }),
  };
}

/** In a worker: also stamp every timer task as it starts. */
export function traceTimers(log: TraceRecord[]): void {
  const setTimer = globalThis.setTimeout;
  globalThis.setTimeout = ((handler: () => void, ms?: number) =>
    setTimer(() => {
      log.push(['timer', `setTimeout(${ms ?? 0})`, now()]);
      handler();
    }, ms)) as typeof setTimeout;
}
