import type { InputRequest } from '../../core/types.js';
import { AmbiError } from '../../errors/ambi-error.js';
import { McpError } from '../../errors/mcp-error.js';
import { errorMessage } from '../../errors/error-message.js';
import type { ToolContext } from '../../tools/types.js';
import { checkAnswers, type InputResponse } from './answers.js';
import { inputRequests } from './input-form.js';

/** A server's `input_required` answer to a call: its questions, and the state it wants back with the answers. */
export interface InputRound {
  inputRequests: unknown;
  requestState?: string;
  /** 1 for the first question of the call, 2 for the next, and so on. */
  round: number;
  /** The questions as checked before (a call resumed after a reload asks them again as they were noted). */
  requests?: InputRequest[];
}

/** What the call is sent again with: the answers, and the server's state as it gave it. */
export interface InputReply {
  inputResponses: Record<string, InputResponse>;
  requestState?: string;
}

/** Asks a person a server's questions for one call (see `personAsker`). */
export type AskInput = (round: InputRound) => Promise<InputReply>;

/** The most questions one call may ask, one after the other: a server that asks again and again ends the call. */
export const MAX_INPUT_ROUNDS = 5;
/** The longest `requestState` kept (it is journalled with the call, to answer after a reload). */
const MAX_REQUEST_STATE_CHARS = 64 * 1024;

/**
 * How an MCP tool's call asks the person its server's questions: checked as a form a person can
 * fill (input-form.ts), noted with the call's journal entry (so a reload asks again and sends the
 * answers with the server's state), asked through the run (`input_requested`, answered by
 * `run.respond`) while the tool's timeout is held, and noted as answered before the call is sent
 * again (a reload from then on cannot tell whether the server acted: `outcome_unknown`).
 */
export function personAsker(ctx: ToolContext, name: string, server: string): AskInput {
  return async ({ inputRequests: raw, requestState, round, requests }) => {
    if (requests) return askPerson(ctx, name, server, requests, requestState, round);
    if (round > MAX_INPUT_ROUNDS)
      throw new McpError('mcp_input_unsupported', `Tool "${name}": the server asked for input ${MAX_INPUT_ROUNDS} times in one call; the call ends there`);
    const shown = inputRequests(raw);
    if (!shown.ok) throw new McpError('mcp_input_unsupported', `Tool "${name}": the server asked a question this client cannot show (${shown.message})`);
    if (requestState !== undefined && (typeof requestState !== 'string' || requestState.length > MAX_REQUEST_STATE_CHARS))
      throw new McpError('mcp_input_unsupported', `Tool "${name}": the server's request state is not text of at most ${MAX_REQUEST_STATE_CHARS} characters`);
    return askPerson(ctx, name, server, shown.requests, requestState, round);
  };
}

/** Ask `requests` (as checked, or as noted before a reload) and note the call answered before it is sent again. */
export async function askPerson(
  ctx: ToolContext,
  name: string,
  server: string,
  requests: InputRequest[],
  requestState: string | undefined,
  round: number,
): Promise<InputReply> {
  const scope = ctx.run;
  if (!scope?.awaitInput)
    throw new McpError('mcp_input_unsupported', `Tool "${name}": the server asked for input, and this call has no run to ask a person through`);
  const state = requestState !== undefined ? { requestState } : {};
  // Unrecorded, the question is only lost to a reload (the call then ends outcome_unknown): it is still asked.
  ctx.noteHandle?.({ kind: 'mcp_input', server, requests, ...state, round }).catch(() => {});
  const resume = ctx.holdTimeout?.();
  let answers: unknown;
  try {
    answers = await scope.awaitInput(
      { callId: ctx.callId, name, requests, source: `mcp:${server}`, check: (values) => checkAnswers(requests, values) },
      ctx.signal,
    );
  } finally {
    resume?.();
  }
  // Written before the answers go: a reload from then on cannot tell whether the server acted on them.
  // Unrecorded, they are not sent: a reload would ask again, and the server could act twice.
  await ctx.noteHandle?.({ kind: 'mcp_input', server, requests, ...state, round, answered: true }).catch((error: unknown) => {
    throw new McpError(
      'mcp_input_unsupported',
      `Tool "${name}": the answers were not sent, since the call's journal entry could not be updated (${errorMessage(error)})`,
    );
  });
  return { inputResponses: answers as Record<string, InputResponse>, ...state };
}

/** What a resumed call ends with when the server may have acted already (its answers were sent, or its handle names another server). */
export function answeredBeforeReload(name: string): AmbiError {
  return new AmbiError(
    'outcome_unknown',
    `The call to "${name}" was cut off (the page closed or reloaded) after it reached the server; it may or may not have taken effect. It was not run again: check before repeating it.`,
  );
}
