// AG-UI 1.0 events as they go on the wire (the subset a run produces), so this entry needs
// nothing of `@ag-ui/core` at run time: `@ag-ui/core`'s `EventSchemas` accept each of them.

/** Fields every AG-UI event may carry. */
export interface AgUiEventBase {
  /** Milliseconds since the Unix epoch. */
  timestamp?: number;
  metadata?: Record<string, unknown>;
}

/** Something the run needs from a person before it can go on: here, a decision on one call. */
export interface AgUiInterrupt {
  /** The call's id: the resume entry answers it by this id. */
  id: string;
  reason: 'tool_call';
  toolCallId: string;
  /** What to ask the person. */
  message: string;
  /** The answer expected in the resume entry's `payload`: `{ approved, editedArgs?, reason? }`. */
  responseSchema: Record<string, unknown>;
  /** `{ leafId }` when the call belongs to a leaf run. */
  metadata?: Record<string, unknown>;
}

/** Why an AG-UI run ended: the ambi-web run answered, waits for a person, or was aborted. */
export type AgUiRunOutcome = { type: 'success' } | { type: 'interrupt'; interrupts: AgUiInterrupt[] } | { type: 'cancelled' };

/** An answer to one interrupt, as `RunAgentInput.resume` carries it. */
export interface AgUiResumeEntry {
  interruptId: string;
  /** `resolved`: `payload` is `{ approved: boolean, editedArgs?: object, reason?: string }`; `cancelled`: the person dismissed it (the call is denied). */
  status: 'resolved' | 'cancelled';
  payload?: unknown;
  metadata?: Record<string, unknown>;
}

/** The AG-UI events `toAgUiEvents` produces. */
export type AgUiEvent = AgUiEventBase &
  (
    | { type: 'RUN_STARTED'; threadId: string; runId: string; protocolVersion: string }
    | { type: 'RUN_FINISHED'; threadId: string; runId: string; result?: unknown; outcome: AgUiRunOutcome }
    | { type: 'RUN_ERROR'; message: string; code: string }
    | { type: 'STEP_STARTED'; stepName: string }
    | { type: 'STEP_FINISHED'; stepName: string }
    | { type: 'TEXT_MESSAGE_START'; messageId: string; role: 'assistant' }
    | { type: 'TEXT_MESSAGE_CONTENT'; messageId: string; delta: string }
    | { type: 'TEXT_MESSAGE_END'; messageId: string }
    | { type: 'TOOL_CALL_START'; toolCallId: string; toolCallName: string; parentMessageId?: string }
    | { type: 'TOOL_CALL_ARGS'; toolCallId: string; delta: string }
    | { type: 'TOOL_CALL_END'; toolCallId: string }
    | { type: 'TOOL_CALL_RESULT'; messageId: string; toolCallId: string; content: string; role: 'tool' }
  );

/** The AG-UI protocol version these events speak. */
export const AG_UI_PROTOCOL_VERSION = '1.0';
