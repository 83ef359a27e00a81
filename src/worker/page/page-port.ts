import type { RunEvent } from '../../runner/events.js';
import { LazyAbortController } from '../../util/abort-source.js';
import { isThenable } from '../../util/thenable.js';
import { ABORT, ASK, CALL, DONE, EVENTS, FAILED, type PageToWorker, type ToolInvoker, type WorkerToPage } from '../wire/protocol.js';
import { sessionLink } from '../wire/session-link.js';
import { fromWireReason, toWireError } from '../wire/wire-error.js';
import { unpackEvents } from '../wire/event-codec.js';

/**
 * The page's end of the session link: runs the worker's tool calls and approval rules
 * here, each with its own abort (dropped when it settles), and hands run events on. A tool that
 * returns a plain value is answered within the message that called it.
 */
export class PagePort {
  readonly #running = new Map<number, LazyAbortController>();

  readonly #send: (message: PageToWorker) => void;

  constructor(
    worker: Worker,
    readonly tools: ReadonlyMap<string, ToolInvoker>,
    readonly onEvents: (runId: string, events: RunEvent[] | null) => void,
  ) {
    this.#send = sessionLink<WorkerToPage, PageToWorker>(worker, (message) => this.#receive(message));
  }

  /** Abort every call running here (the runner closed or died). */
  abortAll(reason: unknown): void {
    for (const controller of this.#running.values()) controller.abort(reason);
    this.#running.clear();
  }

  #receive(message: WorkerToPage): void {
    switch (message[0]) {
      case EVENTS:
        for (const [runId, events] of message[1]) this.onEvents(runId, events && unpackEvents(events));
        return;
      case ABORT: {
        // The worker has ended the call: its answer is no longer awaited.
        const [, id, reason] = message;
        const running = this.#running.get(id);
        this.#running.delete(id);
        running?.abort(fromWireReason(reason));
        return;
      }
      case CALL: {
        // No closure per call: the commonest message, by far.
        const [, id, tool, args, callId, attempt, idempotencyKey] = message;
        const abort = this.#start(id);
        let value: unknown;
        try {
          value = this.#tool(tool).call(args, { callId, attempt, idempotencyKey }, abort);
        } catch (error) {
          return this.#fail(id, error);
        }
        return this.#settle(id, value);
      }
      case ASK: {
        // An approval rule is stopped like a call: a tool worker's rule that spins gets its worker terminated.
        const [, id, tool, args] = message;
        const abort = this.#start(id);
        this.#answer(id, () => this.#tool(tool).needsApproval(args, abort));
        return;
      }
    }
  }

  /** The abort of the call or ask `id`, until it is answered. */
  #start(id: number): LazyAbortController {
    const abort = new LazyAbortController();
    this.#running.set(id, abort);
    return abort;
  }

  #tool(name: string): ToolInvoker {
    const tool = this.tools.get(name);
    if (!tool) throw new Error(`The page serves no tool "${name}"`);
    return tool;
  }

  /** Run `work` now; answer at once if it returns a plain value, else when it settles. */
  #answer(id: number, work: () => unknown): void {
    let value: unknown;
    try {
      value = work();
    } catch (error) {
      return this.#fail(id, error);
    }
    this.#settle(id, value);
  }

  /** Answer `id` with `value`: at once if it is a plain value, else when it settles. */
  #settle(id: number, value: unknown): void {
    let later: boolean;
    try {
      later = isThenable(value); // reads `then`, which may throw
    } catch (error) {
      return this.#fail(id, error);
    }
    if (later)
      void Promise.resolve(value).then(
        (settled) => this.#reply([DONE, id, settled]),
        (error: unknown) => this.#fail(id, error),
      );
    else this.#reply([DONE, id, value]);
  }

  #fail(id: number, error: unknown): void {
    this.#reply([FAILED, id, toWireError(error)]);
  }

  #reply(message: PageToWorker): void {
    const id = message[1];
    this.#running.delete(id);
    try {
      this.#send(message);
    } catch (error) {
      this.#send([FAILED, id, toWireError(error)]);
    }
  }
}
