import type { RunEvent } from '../runner/events.js';
import type { PageToWorker, ToolInvoker, WorkerToPage } from './protocol.js';
import { sessionLink } from './session-link.js';
import { toWireError } from './wire-error.js';


/**
 * The page's end of the session link: runs the worker's tool calls here, each with its
 * own AbortController (dropped when the call settles), and hands run events on.
 */
export class PagePort {
  readonly #running = new Map<number, AbortController>();

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
    for (const [runId, events] of message.events ?? []) this.onEvents(runId, events);
    switch (message.t) {
      case 'events':
        return;
      case 'abort':
        this.#running.get(message.id)?.abort(message.reason);
        return;
      case 'call': {
        const controller = new AbortController();
        this.#running.set(message.id, controller);
        this.#answer(message.id, () => this.#tool(message.tool).call(message.args, message.ctx, controller.signal));
        return;
      }
      case 'ask':
        this.#answer(message.id, () => this.#tool(message.tool).needsApproval(message.args));
        return;
    }
  }

  #tool(name: string): ToolInvoker {
    const tool = this.tools.get(name);
    if (!tool) throw new Error(`The page serves no tool "${name}"`);
    return tool;
  }

  #answer(id: number, work: () => Promise<unknown>): void {
    const reply = (message: PageToWorker) => {
      this.#running.delete(id);
      try {
        this.#send(message);
      } catch (error) {
        this.#send({ t: 'done', id, ok: false, error: toWireError(error) });
      }
    };
    Promise.resolve()
      .then(work)
      .then(
        (value) => reply({ t: 'done', id, ok: true, value }),
        (error: unknown) => reply({ t: 'done', id, ok: false, error: toWireError(error) }),
      );
  }
}
