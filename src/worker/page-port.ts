import type { RunEvent } from '../runner/events.js';
import type { JsonValue } from '../tools/types.js';
import type { PageToWorker, WireContext, WorkerToPage } from './protocol.js';
import { sessionLink } from './session-link.js';
import { toWireError } from './wire-error.js';

/** A tool as the page serves it to the runner worker (a page tool, or one in a supervised tool worker). */
export interface ServedTool {
  call(args: unknown, ctx: WireContext, signal: AbortSignal): Promise<JsonValue>;
  needsApproval(args: unknown): Promise<boolean>;
}

/**
 * The page's end of the session link: runs the worker's tool calls here, each with its
 * own AbortController (dropped when the call settles), and hands run events on.
 */
export class PagePort {
  readonly #running = new Map<number, AbortController>();

  readonly #send: (message: PageToWorker) => void;

  constructor(
    worker: Worker,
    readonly tools: ReadonlyMap<string, ServedTool>,
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

  #tool(name: string): ServedTool {
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
