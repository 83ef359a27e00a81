import * as Comlink from 'comlink';
import type { RunEvent } from '../../core/run.js';
import type { PromptApiAvailability, PromptApiCoreOptions, PromptApiEvent, PromptApiRequest } from '../../engines/prompt-api/access.js';
import { EngineError } from '../../errors/engine-error.js';
import type { CallTarget } from '../../core/types.js';
import type { ServedOutput } from '../../call/served-output.js';
import { AmbiError } from '../../errors/ambi-error.js';
import { LazyAbortController } from '../../util/abort-source.js';
import {
  ANSWERED,
  CALL,
  type AnswerMessage,
  type CallMessage,
  type EventBatch,
  EVENTS,
  type EventsMessage,
  FAILED,
  type PageHostApi,
  type ToolInvoker,
  type WireContext,
} from '../wire/protocol.js';
import { fromWireReason, toWireError, type WireReason } from '../wire/wire-error.js';
import { isThenable } from '../../util/thenable.js';
import { EventUnpacker } from '../wire/event-codec.js';
import { comlinkView } from '../wire/comlink-view.js';

/**
 * What the page serves the runner worker (exposed over Comlink on the worker's channel): its
 * tools' calls and approval rules, each with an abort that the worker can fire by its key, and
 * the runs' events, handed on in order.
 */
export class PageHost implements PageHostApi {
  readonly #running = new Map<number, LazyAbortController>();
  /** Unpacks the runs' events, putting back the answers this page gave that the worker did not send back. */
  readonly #events: EventUnpacker;

  constructor(
    readonly tools: ReadonlyMap<string, ToolInvoker>,
    readonly onEvents: (runId: string, events: RunEvent[] | null) => void,
    /** This page follows every run of its runner (a dedicated one), so it keeps its answers (see event-codec.ts). */
    keepsAnswers = false,
  ) {
    this.#events = new EventUnpacker(keepsAnswers);
  }

  call(tool: string, args: unknown, ctx: WireContext, key: number): Promise<ServedOutput> {
    return this.#run(key, (abort) => this.#tool(tool).call(args, ctx, abort));
  }

  /**
   * Serve the runner worker on `endpoint`, its channel: this host over Comlink, and beside it the
   * worker's page-tool calls (CallMessage) and its runs' events (EventsMessage), which Comlink's
   * listener does not see (comlinkView).
   */
  serve(endpoint: Comlink.Endpoint): void {
    Comlink.expose(this, comlinkView(endpoint));
    endpoint.addEventListener('message', (event) => {
      const data = (event as MessageEvent).data as unknown;
      if (!Array.isArray(data)) return;
      if (data[0] === CALL) this.#serve(data as CallMessage, endpoint);
      else if (data[0] === EVENTS) this.events((data as EventsMessage)[1]);
    });
  }

  /** One call: a tool that answers at once is answered at once (no promise made for it). */
  #serve(message: CallMessage, endpoint: Comlink.Endpoint): void {
    const [, key, tool, args, callId, attempt, idempotencyKey, target] = message;
    const ctx: WireContext = target ? { callId, attempt, idempotencyKey, target } : { callId, attempt, idempotencyKey };
    const abort = new LazyAbortController();
    this.#running.set(key, abort);
    const answer = (reply: AnswerMessage) => {
      // An answer after the call's abort is not awaited: the run will not take it.
      const awaited = this.#running.delete(key);
      try {
        endpoint.postMessage(reply);
        if (awaited) this.#keep(callId, reply);
      } catch (error) {
        void uncloned(reply, error).then((copy) => {
          if (awaited) this.#keep(callId, copy);
          endpoint.postMessage(copy);
        });
      }
    };
    const failed = (error: unknown) => answer([FAILED, key, toWireError(error)]);
    try {
      const output = this.#tool(tool).call(args, ctx, abort);
      if (isThenable(output)) output.then((value) => answer([ANSWERED, key, value]), failed);
      else answer([ANSWERED, key, output]);
    } catch (error) {
      failed(error);
    }
  }

  /** An answer as it crossed (an uncloneable output's JSON copy), kept for the call's tool_finished and the run's result (see event-codec.ts). */
  #keep(callId: string, sent: AnswerMessage): void {
    if (sent[0] === ANSWERED && !(sent[2] instanceof Map)) this.#events.answered(callId, sent[2]);
  }

  /** An approval rule is stopped like a call: a tool worker's rule that spins gets its worker terminated. */
  needsApproval(tool: string, args: unknown, key: number): Promise<boolean> {
    return this.#run(key, (abort) => this.#tool(tool).needsApproval(args, abort));
  }

  /** Where a call acts: stopped like a rule when the run no longer waits for it. */
  target(tool: string, args: unknown, key: number): Promise<CallTarget> {
    return this.#run(key, (abort) => {
      const invoker = this.#tool(tool);
      if (!invoker.target) throw new AmbiError('internal_error', `The page's tool "${tool}" names no target`);
      return invoker.target(args, abort);
    });
  }

  abort(key: number, reason: WireReason): void {
    const running = this.#running.get(key);
    this.#running.delete(key);
    running?.abort(fromWireReason(reason));
  }

  /** A batch of run events, unpacked (see event-codec.ts) and handed on in order. */
  events(batch: EventBatch): void {
    for (const [runId, wire] of batch) {
      if (wire === null) {
        this.#events.end(runId);
        this.onEvents(runId, null);
        continue;
      }
      const events = new Array<RunEvent>(wire.length);
      for (let at = 0; at < wire.length; at++) events[at] = this.#events.unpack(runId, wire[at]!);
      this.onEvents(runId, events);
    }
  }

  async promptApiAvailability(options: PromptApiCoreOptions): Promise<PromptApiAvailability> {
    const model = await pageLanguageModel();
    return model ? model.access.availability(options) : 'unavailable';
  }

  /** Runs on the page: the browser offers `LanguageModel` to documents only. The stream crosses to the worker whole (transferred). */
  async promptApi(request: PromptApiRequest): Promise<ReadableStream<PromptApiEvent>> {
    const model = await pageLanguageModel();
    if (!model) throw new EngineError('engine_unavailable', "The browser's built-in model cannot be used: the page has no Prompt API (no `LanguageModel`)");
    const stream = await model.access.prompt(request);
    return Comlink.transfer(stream, [stream as unknown as Transferable]);
  }

  /** Abort every call running here (the runner closed or died). */
  abortAll(reason: unknown): void {
    for (const controller of this.#running.values()) controller.abort(reason);
    this.#running.clear();
    this.#events.clear();
  }

  async #run<T>(key: number, work: (abort: LazyAbortController) => T | Promise<T>): Promise<T> {
    const abort = new LazyAbortController();
    this.#running.set(key, abort);
    try {
      return await work(abort);
    } finally {
      this.#running.delete(key);
    }
  }

  #tool(name: string): ToolInvoker {
    const tool = this.tools.get(name);
    if (!tool) throw new AmbiError('unknown_tool', `The page serves no tool "${name}"`);
    return tool;
  }
}

/**
 * An answer that could not be cloned: an output that looked plain but is not (a Proxy, such as a
 * framework's reactive state, reads as plain and refuses to clone) crosses as its JSON copy; any
 * other is the call's failure, said so.
 */
async function uncloned(reply: AnswerMessage, error: unknown): Promise<AnswerMessage> {
  if (reply[0] === ANSWERED && !(reply[2] instanceof Map)) {
    try {
      // The converter loads here, for the first such answer: a page whose answers clone never carries it.
      const { toJsonOutput } = await import('../../tools/json-output.js');
      return [ANSWERED, reply[1], toJsonOutput(reply[2])];
    } catch {
      // Not JSON either: the clone's error says why.
    }
  }
  return [FAILED, reply[1], toWireError(error)];
}

/** The page's `LanguageModel` through the Prompt API engine's access, its code loaded on first use; undefined where the page has none. */
async function pageLanguageModel() {
  const { directPromptApi, realmLanguageModel } = await import('../../engines/prompt-api/direct.js');
  const model = realmLanguageModel();
  return model ? { access: directPromptApi(model) } : undefined;
}
