import type { RunEvent } from '../../runner/events.js';
import { LazyAbortController } from '../../util/abort-source.js';
import { isThenable } from '../../util/thenable.js';
import type { PageToWorker, ToolInvoker, WorkerToPage } from '../wire/protocol.js';
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
    switch (message.t) {
      case 'events':
        for (const [runId, events] of message.events) this.onEvents(runId, events && unpackEvents(events));
        return;
      case 'abort': {
        // The worker has ended the call: its answer is no longer awaited.
        const running = this.#running.get(message.id);
        this.#running.delete(message.id);
        running?.abort(fromWireReason(message.reason));
        return;
      }
      case 'call': {
        // No closure per call: the commonest message, by far.
        const { id, callId, attempt, idempotencyKey } = message;
        const abort = this.#start(id);
        let value: unknown;
        try {
          value = this.#tool(message.tool).call(message.args, { callId, attempt, idempotencyKey }, abort);
        } catch (error) {
          return this.#fail(id, error);
        }
        return this.#settle(id, value);
      }
      case 'ask': {
        // An approval rule is stopped like a call: a tool worker's rule that spins gets its worker terminated.
        const abort = this.#start(message.id);
        this.#answer(message.id, () => this.#tool(message.tool).needsApproval(message.args, abort));
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
        (settled) => this.#reply({ t: 'done', id, ok: true, value: settled }),
        (error: unknown) => this.#fail(id, error),
      );
    else this.#reply({ t: 'done', id, ok: true, value });
  }

  #fail(id: number, error: unknown): void {
    this.#reply({ t: 'done', id, ok: false, error: toWireError(error) });
  }

  #reply(message: PageToWorker): void {
    this.#running.delete(message.id);
    try {
      this.#send(message);
    } catch (error) {
      this.#send({ t: 'done', id: message.id, ok: false, error: toWireError(error) });
    }
  }
}
