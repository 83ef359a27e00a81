import type { ChatTransport, UIMessage } from 'ai';
import { AmbiError } from '../errors/ambi-error.js';
import type { Decision } from '../ui/run-segments.js';
import { checkMessages } from './ui-messages.js';
import type { ContentPart, RunInput } from '../core/parts.js';

/** An answer the AI SDK's `addToolApprovalResponse` left on a tool part. */
export interface ApprovalResponse {
  /** The approval id, which is the call's id (see ChunkWriter). */
  callId: string;
  approved: boolean;
  reason?: string;
  /** The part's input: what the person saw, or edited. */
  input: unknown;
}

/** What one `sendMessages` asks for: run a person's message (its text, or its text and files as parts), or go on with answered approvals. */
export type ChatRequest = { kind: 'message'; input: RunInput } | { kind: 'approvals'; responses: ApprovalResponse[]; shown: string[] };

type Trigger = Parameters<ChatTransport<UIMessage>['sendMessages']>[0]['trigger'];
type Part = UIMessage['parts'][number];
type ToolPart = Extract<Part, { toolCallId: string }>;

const isToolPart = (part: Part): part is ToolPart => part.type === 'dynamic-tool' || part.type.startsWith('tool-');

/**
 * Read a request of `useChat`. The conversation lives in the runner, so only the last message
 * counts: a person's message is run; an assistant message carries the approval responses that
 * let its waiting calls go on. Anything else (malformed messages included) is refused with a coded
 * error, before anything runs.
 */
export function readRequest(trigger: Trigger, messages: readonly UIMessage[]): ChatRequest {
  if (trigger === 'regenerate-message') {
    throw new AmbiError(
      'unsupported_trigger',
      'Regenerating is not supported: the conversation lives in the runner, which keeps the answer it gave. Send a new message instead.',
    );
  }
  if (trigger !== 'submit-message')
    throw new AmbiError('unsupported_trigger', `The trigger ${JSON.stringify(String(trigger).slice(0, 80))} is not one of the AI SDK's`);
  checkMessages(messages);
  const last = messages.at(-1);
  if (last?.role === 'user') {
    const text = last.parts
      .flatMap((part) => (part.type === 'text' ? [part.text] : []))
      .join('\n\n')
      .trim();
    const files = last.parts.flatMap((part) => (part.type === 'file' ? [filePart(part)] : []));
    if (text === '' && files.length === 0) throw new AmbiError('empty_message', 'The last message has no text or file to run');
    // A message of text stays text; with files (useChat's attachments, as data: or https: URLs), it is parts.
    return { kind: 'message', input: files.length === 0 ? text : [...(text === '' ? [] : [{ type: 'text' as const, text }]), ...files] };
  }
  const parts = last?.role === 'assistant' ? last.parts.filter(isToolPart) : [];
  const responses = parts.flatMap((part): ApprovalResponse[] =>
    part.state === 'approval-responded' && typeof part.approval?.id === 'string'
      ? [{ callId: part.approval.id, approved: part.approval.approved === true, ...reasonOf(part.approval.reason), input: part.input }]
      : [],
  );
  if (responses.length === 0)
    throw new AmbiError('empty_message', 'Nothing to send: the last message is neither a message of the person nor an answered approval');
  return { kind: 'approvals', responses, shown: parts.map((part) => part.toolCallId) };
}

/** A `useChat` file part as a run's part: an image by its media type, else a file with its name. The URL is checked by the run. */
function filePart(part: Extract<Part, { type: 'file' }>): ContentPart {
  if (part.mediaType.startsWith('image/')) return { type: 'image', image: part.url, mediaType: part.mediaType };
  return { type: 'file', data: part.url, mediaType: part.mediaType, ...(part.filename !== undefined ? { filename: part.filename } : {}) };
}

const reasonOf = (reason: unknown): { reason?: string } => (typeof reason === 'string' && reason !== '' ? { reason } : {});

/** The decision a response stands for; an input that differs from the call's arguments is an edit (validated again by the runner). */
export function decisionOf(response: ApprovalResponse, original: unknown): Decision {
  if (!response.approved) return { approved: false, ...reasonOf(response.reason) };
  return response.input === undefined || sameJson(response.input, original) ? { approved: true } : { approved: true, arguments: response.input };
}

/** Equal as JSON values (object keys in any order). */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((item, i) => sameJson(item, b[i]));
  const keysA = Object.keys(a);
  const keysB = Object.keys(b);
  if (keysA.length !== keysB.length) return false;
  return keysA.every((key) => Object.hasOwn(b, key) && sameJson((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]));
}

/** The refusal of responses that name no waiting call (a stale card, a forged part): nothing of the request is applied. */
export function unknownApprovals(conversation: string, callIds: readonly string[]): AmbiError {
  const named = callIds
    .slice(0, 3)
    .map((id) => JSON.stringify(id.slice(0, 80)))
    .join(', ');
  const more = callIds.length > 3 ? ` and ${callIds.length - 3} more` : '';
  return new AmbiError(
    'unknown_approval',
    `No call waits for approval under ${named}${more} in conversation ${JSON.stringify(conversation.slice(0, 80))}: nothing was decided`,
  );
}
