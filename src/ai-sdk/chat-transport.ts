import type { ChatTransport, UIMessage, UIMessageChunk } from 'ai';
import { AmbiError } from '../errors/ambi-error.js';
import type { ChatRunOptions, ConversationRunner } from '../ui/conversation-runner.js';
import { RunSegments } from '../ui/run-segments.js';
import type { WaitingCall } from '../ui/run-watch.js';
import { decisionOf, readRequest, unknownApprovals, type ApprovalResponse } from './chat-request.js';
import { ChunkWriter } from './chunk-writer.js';

/** What `ambiChatTransport` takes besides the runner. */
export interface AmbiChatTransportOptions {
  /** Options of every run and resume (`maxIterations`, `toolChoice`, `lock`, …). */
  run?: ChatRunOptions;
  /** The conversation a chat's id names (default: the chat id itself). */
  conversation?: (chatId: string) => string;
}

type SendOptions = Parameters<ChatTransport<UIMessage>['sendMessages']>[0];
type ReconnectOptions = Parameters<ChatTransport<UIMessage>['reconnectToStream']>[0];

/** How one response is read from a run: what its message shows already, and what Stop does. */
interface ResponseOptions {
  abortSignal: AbortSignal | undefined;
  /** Stop aborts the run (a request of the person), or only lets go of it (a reconnect, which the AI SDK also aborts when it reconnects again). */
  stopAborts: boolean;
  shown?: readonly string[];
  waiting?: readonly WaitingCall[];
}

/**
 * The AI SDK's `ChatTransport` (ai@7) on a runner: `useChat` / `Chat` with no server. A chat's
 * id is the conversation; the last user message runs; a call that needs approval ends the
 * response with a tool-approval part, and the AI SDK's approval responses (`addToolApprovalResponse`,
 * sent with `sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses`) reach
 * `approve` / `deny`, an edited part input as edited arguments. `reconnectToStream` (`useChat({ resume: true })`)
 * picks up a run of this page, or resumes a stored one that waits for approval after a reload.
 */
export function ambiChatTransport<M extends UIMessage = UIMessage>(runner: ConversationRunner, options: AmbiChatTransportOptions = {}): ChatTransport<M> {
  return new AmbiChatTransport<M>(runner, options);
}

class AmbiChatTransport<M extends UIMessage> implements ChatTransport<M> {
  /** The run of each conversation that this page drives, until all its events were shown. */
  readonly #live = new Map<string, RunSegments>();
  /** A resume being opened, by conversation: a second request waits for it instead of resuming twice. */
  readonly #opening = new Map<string, Promise<unknown>>();
  #responses = 0;

  constructor(
    private readonly runner: ConversationRunner,
    private readonly options: AmbiChatTransportOptions,
  ) {}

  async sendMessages({ chatId, messages, trigger, abortSignal }: SendOptions): Promise<ReadableStream<UIMessageChunk>> {
    const conversation = this.#conversation(chatId);
    const request = readRequest(trigger, messages);
    // Checked again after each wait, and acted on in the same task: two requests never resume one conversation twice.
    while (this.#opening.has(conversation)) await this.#opening.get(conversation)?.catch(() => undefined);
    if (request.kind === 'message') {
      // A new message while the last run waits (or still goes on): that run stops, its calls recorded as aborted.
      this.#live.get(conversation)?.run.abort(new AmbiError('aborted', 'A new message was sent in this chat'));
      const segments = this.#follow(conversation, this.runner.run(request.input, { ...this.options.run, conversation }));
      return this.#respond(conversation, segments, { abortSignal, stopAborts: true });
    }
    const segments = await this.#answer(conversation, request.responses);
    return this.#respond(conversation, segments, { abortSignal, stopAborts: true, shown: request.shown });
  }

  async reconnectToStream({ chatId, abortSignal }: ReconnectOptions): Promise<ReadableStream<UIMessageChunk> | null> {
    const conversation = this.#conversation(chatId);
    // As in sendMessages: two reconnects at once (React's strict mode mounts twice) resume once.
    while (this.#opening.has(conversation)) await this.#opening.get(conversation)?.catch(() => undefined);
    const live = this.#live.get(conversation);
    if (live && !live.drained) return this.#respond(conversation, live, { abortSignal, stopAborts: false, waiting: live.watch.waiting });
    // Only a run that waits for a person resumes here: one the person stopped, or that failed, stays as it ended.
    const segments = await this.#once(conversation, async () => {
      const pending = await this.runner.pendingApprovals(conversation);
      return pending.length > 0 ? this.#follow(conversation, this.runner.resume(conversation, this.options.run)) : undefined;
    });
    return segments ? this.#respond(conversation, segments, { abortSignal, stopAborts: false }) : null;
  }

  /** Apply approval responses to the run that waits for them: this page's, or the stored one, resumed (the page reloaded). */
  async #answer(conversation: string, responses: readonly ApprovalResponse[]): Promise<RunSegments> {
    const live = this.#live.get(conversation);
    if (live && !live.settled) {
      // A response the run already has (its part still shows it) is not applied twice.
      const fresh = responses.filter((response) => !live.wasDecided(response.callId));
      const unknown = fresh.filter((response) => !live.watch.isWaiting(response.callId));
      if (unknown.length > 0)
        throw unknownApprovals(
          conversation,
          unknown.map((response) => response.callId),
        );
      const waiting = new Map(live.watch.waiting.map(({ call }) => [call.id, call.arguments]));
      for (const response of fresh) live.decide(response.callId, decisionOf(response, waiting.get(response.callId)));
      return live;
    }
    return this.#once(conversation, async () => {
      const pending = new Map((await this.runner.pendingApprovals(conversation)).map(({ callId, call }) => [callId, call.arguments]));
      const unknown = responses.filter((response) => !pending.has(response.callId));
      if (unknown.length > 0)
        throw unknownApprovals(
          conversation,
          unknown.map((response) => response.callId),
        );
      const resumed = this.#follow(conversation, this.runner.resume(conversation, this.options.run));
      // The resumed run asks again for each call; the answers given before the reload decide them.
      for (const response of responses) resumed.decideWhenAsked(response.callId, decisionOf(response, pending.get(response.callId)));
      return resumed;
    });
  }

  #follow(conversation: string, run: RunSegments['run']): RunSegments {
    const segments = new RunSegments(run);
    this.#live.set(conversation, segments);
    return segments;
  }

  /** Run `open` for a conversation, marked as being opened from this very task (a request that comes meanwhile waits for it). */
  async #once<T>(conversation: string, open: () => Promise<T>): Promise<T> {
    const opening = open();
    this.#opening.set(conversation, opening);
    try {
      return await opening;
    } finally {
      if (this.#opening.get(conversation) === opening) this.#opening.delete(conversation);
    }
  }

  /** One response: the run's next segment as UI message chunks. */
  #respond(conversation: string, segments: RunSegments, options: ResponseOptions): ReadableStream<UIMessageChunk> {
    const detach = new AbortController();
    const reader = segments.next(detach.signal);
    const prefix = `${segments.run.runId}-${++this.#responses}`;
    const { abortSignal } = options;
    return new ReadableStream<UIMessageChunk>({
      start: (controller) => {
        const emit = (chunk: UIMessageChunk) => {
          // A reader that cancelled takes nothing more; the run's events wait for the next response.
          if (!detach.signal.aborted) controller.enqueue(chunk);
        };
        const writer = new ChunkWriter(emit, prefix, options.shown, (callId) => segments.wasDecided(callId));
        if (options.waiting) writer.waiting(options.waiting);
        const stop = () => {
          if (options.stopAborts) segments.run.abort(abortSignal?.reason);
          detach.abort();
        };
        if (abortSignal?.aborted) stop();
        else abortSignal?.addEventListener('abort', stop, { once: true });
        void (async () => {
          for await (const item of reader) {
            writer.event(item);
            if (item.type !== 'segment_end') continue;
            if (item.reason === 'settled' && this.#live.get(conversation) === segments) this.#live.delete(conversation);
            break;
          }
          abortSignal?.removeEventListener('abort', stop);
          closeQuietly(controller);
        })();
      },
      // The AI SDK cancels a stream it no longer reads (an error chunk, a superseded reconnect): the run goes on.
      cancel: () => detach.abort(),
    });
  }

  #conversation(chatId: string): string {
    return this.options.conversation ? this.options.conversation(chatId) : chatId;
  }
}

/** Close a stream its reader may have cancelled already. */
function closeQuietly(controller: ReadableStreamDefaultController<UIMessageChunk>): void {
  try {
    controller.close();
  } catch {
    // Cancelled by its reader: nothing to close.
  }
}
