import type { ToolCall, ToolResult } from '../core/types.js';
import type { RunEvent } from '../core/run.js';
import type { SegmentEnd } from '../ui/run-segments.js';
import type { WaitingCall } from '../ui/run-watch.js';
import { AG_UI_PROTOCOL_VERSION, type AgUiEvent, type AgUiInterrupt } from './events.js';

/** What a resume entry's payload may hold for an approval (AG-UI's approve-with-edits pattern); a new object each time, as consumers may keep it. */
export const approvalResponseSchema = (): Record<string, unknown> => ({
  type: 'object',
  properties: {
    approved: { type: 'boolean' },
    editedArgs: { type: 'object', description: 'Full replacement of the call arguments, not merged; validated again before the call runs.' },
    reason: { type: 'string', description: 'Why, told to the model when the call is denied.' },
  },
  required: ['approved'],
});

/** What carries over from one AG-UI run to the next of the same ambi-web run. */
export interface AgUiThread {
  threadId: string;
  /** The model turn going on (a step per turn; a turn cut by an interrupt goes on as the same step in the next AG-UI run). */
  turn: number;
  /** Calls with a TOOL_CALL_START in some AG-UI run of this ambi-web run. */
  announced: Set<string>;
}

/**
 * One AG-UI run, written from a segment of run events: RUN_STARTED first, then a step per model
 * turn with its text messages and tool calls (each call's arguments in one TOOL_CALL_ARGS), the
 * results, and RUN_FINISHED (success, an interrupt per call that waits for a decision, or
 * cancelled for an aborted run) or RUN_ERROR. A leaf's calls appear only when they ask for approval.
 */
export class AgUiWriter {
  readonly #out: AgUiEvent[] = [];
  #text: string | undefined;
  #texts = 0;
  #step: string | undefined;
  /** The text message of this turn its calls belong to. */
  #parent: string | undefined;
  #ended = false;
  interrupts: AgUiInterrupt[] = [];

  constructor(
    private readonly thread: AgUiThread,
    private readonly runId: string,
  ) {
    this.#push({ type: 'RUN_STARTED', threadId: thread.threadId, runId, protocolVersion: AG_UI_PROTOCOL_VERSION });
  }

  /** The events written since the last call. */
  take(): AgUiEvent[] {
    return this.#out.splice(0);
  }

  /** Whether the AG-UI run has ended (RUN_FINISHED or RUN_ERROR written). */
  get ended(): boolean {
    return this.#ended;
  }

  event(event: RunEvent | SegmentEnd): void {
    if (this.#ended) return;
    const top = !('leafId' in event && event.leafId);
    switch (event.type) {
      case 'text_delta':
        if (top && event.text !== '') this.#writeText(event.text);
        break;
      case 'tool_call':
        if (top) this.#announce(event.call);
        break;
      case 'approval_requested':
        this.#announce(event.call, event.leafId);
        break;
      case 'tool_finished':
        if (top || this.thread.announced.has(event.result.id)) this.#result(event.result);
        break;
      case 'iteration_finished':
        if (!top) break;
        this.#endStep();
        this.thread.turn = event.iteration + 1;
        break;
      case 'run_finished':
        if (top) this.#finish({ type: 'success' }, event.result.output ?? event.result.text);
        break;
      case 'run_failed':
        if (!top) break;
        // Stopped by whoever ran it, not failed: AG-UI's cancelled outcome.
        if (event.error.code === 'aborted') this.#finish({ type: 'cancelled' });
        else this.#error(event.error.code, event.error.message);
        break;
      case 'segment_end':
        if (event.reason === 'waiting') {
          this.interrupts = event.waiting.map(interruptOf);
          this.#finish({ type: 'interrupt', interrupts: this.interrupts });
        } else if (event.reason === 'settled') this.#finish({ type: 'success' });
        break;
    }
  }

  /** RUN_ERROR: the AG-UI run ends here (its steps and messages need no closing). */
  #error(code: string, message: string): void {
    this.#ended = true;
    this.#push({ type: 'RUN_ERROR', code, message });
  }

  #finish(outcome: Extract<AgUiEvent, { type: 'RUN_FINISHED' }>['outcome'], result?: unknown): void {
    this.#endStep();
    this.#ended = true;
    const { threadId } = this.thread;
    this.#push({ type: 'RUN_FINISHED', threadId, runId: this.runId, outcome, ...(result !== undefined ? { result } : {}) });
  }

  #openStep(): void {
    if (this.#step !== undefined) return;
    this.#step = `model turn ${this.thread.turn}`;
    this.#push({ type: 'STEP_STARTED', stepName: this.#step });
  }

  #endStep(): void {
    this.#closeText();
    this.#parent = undefined;
    if (this.#step === undefined) return;
    this.#push({ type: 'STEP_FINISHED', stepName: this.#step });
    this.#step = undefined;
  }

  #writeText(delta: string): void {
    this.#openStep();
    if (this.#text === undefined) {
      this.#text = this.#parent = `${this.runId}-message-${++this.#texts}`;
      this.#push({ type: 'TEXT_MESSAGE_START', messageId: this.#text, role: 'assistant' });
    }
    this.#push({ type: 'TEXT_MESSAGE_CONTENT', messageId: this.#text, delta });
  }

  #closeText(): void {
    if (this.#text === undefined) return;
    this.#push({ type: 'TEXT_MESSAGE_END', messageId: this.#text });
    this.#text = undefined;
  }

  #announce(call: ToolCall, leafId?: string): void {
    this.#closeText();
    this.#openStep();
    if (this.thread.announced.has(call.id)) return;
    this.thread.announced.add(call.id);
    const leaf = leafId ? { metadata: { leafId } } : {};
    const parent = this.#parent && !leafId ? { parentMessageId: this.#parent } : {};
    this.#push({ type: 'TOOL_CALL_START', toolCallId: call.id, toolCallName: call.name, ...parent, ...leaf });
    this.#push({ type: 'TOOL_CALL_ARGS', toolCallId: call.id, delta: JSON.stringify(call.arguments ?? {}) });
    this.#push({ type: 'TOOL_CALL_END', toolCallId: call.id });
  }

  /** A result, against the call's id; a resumed run's call keeps the TOOL_CALL_START of the AG-UI run that proposed it (AG-UI does not repeat it). */
  #result(result: ToolResult): void {
    this.#closeText();
    this.#openStep();
    const content = result.ok
      ? typeof result.output === 'string'
        ? result.output
        : (JSON.stringify(result.output) ?? 'null')
      : `${result.error.code}: ${result.error.message}`;
    this.#push({
      type: 'TOOL_CALL_RESULT',
      messageId: `${result.id}-result`,
      toolCallId: result.id,
      content,
      role: 'tool',
      ...(result.ok ? {} : { metadata: { error: result.error.code } }),
    });
  }

  #push(event: AgUiEvent): void {
    this.#out.push({ ...event, timestamp: Date.now() });
  }
}

/** The interrupt for a call that waits for a decision; its metadata says what the model had read (`untrusted`) and whose call it is (`leafId`). */
function interruptOf({ call, leafId, untrusted }: WaitingCall): AgUiInterrupt {
  const args = JSON.stringify(call.arguments ?? {});
  return {
    id: call.id,
    reason: 'tool_call',
    toolCallId: call.id,
    message: `Allow ${call.name} with ${args.length > 200 ? `${args.slice(0, 200)}…` : args}?`,
    responseSchema: approvalResponseSchema(),
    ...(leafId || untrusted ? { metadata: { ...(leafId ? { leafId } : {}), ...(untrusted ? { untrusted } : {}) } } : {}),
  };
}
