import type { UIMessageChunk } from 'ai';
import type { ToolCall, ToolResult } from '../core/types.js';
import type { RunEvent, UntrustedContext } from '../core/run.js';
import type { SegmentEnd } from '../ui/run-segments.js';
import type { WaitingCall } from '../ui/run-watch.js';

/** What a tool part's `toolMetadata` may hold: JSON, as the AI SDK keeps it. */
type ToolMetadata = NonNullable<Extract<UIMessageChunk, { type: 'tool-input-start' }>['toolMetadata']>;

/** The text a UI shows for a coded failure: `code: message`, as errors that cross a boundary read here. */
export const codedText = (error: { code: string; message: string }): string => `${error.code}: ${error.message}`;

/**
 * One AI SDK response, written from a segment of run events as UI message chunks. Calls become
 * dynamic tool parts (the AI SDK has no schema for them) marked `providerExecuted`: the runner,
 * on the far side of the transport, runs them, not the page's `onToolCall`. A call that waits
 * for a person gets a `tool-approval-request` whose approval id is the call's id, the same
 * across reloads. A leaf's calls are shown only when they ask for approval. A part's `toolMetadata`
 * holds `leafId` for a leaf's call and, once a tainted call asks, `untrusted: { sources, flows }`
 * (what the model had read, and which arguments came from it), so the card can say so.
 */
export class ChunkWriter {
  /** Calls that have a part in the message this response writes to. */
  readonly #shown: Set<string>;
  /** Calls whose part this response wrote in the step going on (the AI SDK updates a part only there), with their arguments. */
  readonly #inStep = new Map<string, unknown>();
  #text: string | undefined;
  #texts = 0;
  #step = false;
  #ended = false;

  constructor(
    private readonly emit: (chunk: UIMessageChunk) => void,
    /** Prefix of this response's part ids (unique per response). */
    private readonly prefix: string,
    /** Calls the message already shows (it continues after an approval). */
    shown: Iterable<string> = [],
    /** Whether a call's decision was already taken (its request is not shown again). */
    private readonly decided: (callId: string) => boolean = () => false,
  ) {
    this.#shown = new Set(shown);
    emit({ type: 'start' });
  }

  /** Show calls that waited before this response began (a reconnect to a run that waits). */
  waiting(calls: readonly WaitingCall[]): void {
    for (const { call, leafId, untrusted } of calls) this.#ask(call, leafId, untrusted);
  }

  event(event: RunEvent | SegmentEnd): void {
    if (this.#ended) return;
    const top = !('leafId' in event && event.leafId);
    switch (event.type) {
      case 'text_delta':
        if (top && event.text !== '') this.#writeText(event.text);
        break;
      case 'tool_call':
        if (top) this.#show(event.call);
        break;
      case 'approval_requested':
        this.#ask(event.call, event.leafId, event.untrusted);
        break;
      case 'tool_finished':
        if (top || this.#shown.has(event.result.id)) this.#finish(event.result);
        break;
      case 'iteration_finished':
        if (top) this.#endStep();
        break;
      case 'run_finished':
        if (!top) break;
        this.#endStep();
        this.#end({ type: 'finish', finishReason: 'stop' });
        break;
      case 'run_failed':
        if (!top) break;
        this.#closeText();
        this.#end({ type: 'error', errorText: codedText(event.error) });
        break;
      case 'segment_end':
        // Waiting for a person: the response ends here, and the AI SDK's approval responses start the next one.
        if (event.reason === 'waiting') this.#end({ type: 'finish', finishReason: 'tool-calls' });
        else if (event.reason === 'settled') this.#end({ type: 'finish' });
        break;
    }
  }

  #writeText(delta: string): void {
    this.#openStep();
    if (this.#text === undefined) {
      this.#text = `${this.prefix}-text-${++this.#texts}`;
      this.emit({ type: 'text-start', id: this.#text });
    }
    this.emit({ type: 'text-delta', id: this.#text, delta });
  }

  #closeText(): void {
    if (this.#text === undefined) return;
    this.emit({ type: 'text-end', id: this.#text });
    this.#text = undefined;
  }

  #openStep(): void {
    if (this.#step) return;
    this.#step = true;
    this.emit({ type: 'start-step' });
  }

  #endStep(): void {
    this.#closeText();
    this.#inStep.clear();
    if (!this.#step) return;
    this.#step = false;
    this.emit({ type: 'finish-step' });
  }

  /** A part for the call, unless the message has one. */
  #show(call: Pick<ToolCall, 'id' | 'name'> & { arguments?: unknown }, leafId?: string, untrusted?: UntrustedContext): void {
    if (this.#shown.has(call.id)) return;
    this.#shown.add(call.id);
    this.#inStep.set(call.id, call.arguments);
    this.#closeText();
    this.#openStep();
    const part = { toolCallId: call.id, toolName: call.name, dynamic: true, providerExecuted: true, ...metadataOf(leafId, untrusted) };
    this.emit({ type: 'tool-input-start', ...part });
    this.emit({ type: 'tool-input-available', ...part, input: call.arguments });
  }

  #ask(call: ToolCall, leafId: string | undefined, untrusted: UntrustedContext | undefined): void {
    if (this.decided(call.id)) return this.#show(call, leafId);
    // A tainted call shown already in this step: its part gets what the model read, before its card.
    if (untrusted && this.#inStep.has(call.id)) {
      const part = { toolCallId: call.id, toolName: call.name, dynamic: true, providerExecuted: true, ...metadataOf(leafId, untrusted) };
      this.emit({ type: 'tool-input-available', ...part, input: this.#inStep.get(call.id) });
    } else this.#show(call, leafId, untrusted);
    this.emit({ type: 'tool-approval-request', approvalId: call.id, toolCallId: call.id });
  }

  #finish(result: ToolResult): void {
    // A resumed run reports calls of the interrupted reply it never announced: their arguments are not known here.
    this.#show({ id: result.id, name: result.name });
    if (result.ok) this.emit({ type: 'tool-output-available', toolCallId: result.id, output: result.output, providerExecuted: true, dynamic: true });
    else if (result.error.code === 'denied') this.emit({ type: 'tool-output-denied', toolCallId: result.id });
    else this.emit({ type: 'tool-output-error', toolCallId: result.id, errorText: codedText(result.error), providerExecuted: true, dynamic: true });
  }

  #end(last: UIMessageChunk): void {
    this.#closeText();
    this.#ended = true;
    this.emit(last);
  }
}

/** A part's `toolMetadata` (JSON the AI SDK keeps on the part): whose call it is and what the model had read; nothing when neither. */
function metadataOf(leafId: string | undefined, untrusted: UntrustedContext | undefined): { toolMetadata?: ToolMetadata } {
  if (!leafId && !untrusted) return {};
  return { toolMetadata: { ...(leafId ? { leafId } : {}), ...(untrusted ? { untrusted: untrusted as unknown as ToolMetadata } : {}) } };
}
