import type { Message } from '../core/types.js';
import { isRecord, shown } from './record-shape.js';
import { invalidValue } from './storage-failure.js';
import { partsFault } from './blob-parts.js';

const ROLES: ReadonlySet<unknown> = new Set(['system', 'user', 'assistant', 'tool']);
const ORIGINS: ReadonlySet<unknown> = new Set([undefined, 'user', 'runtime']);
const NO_CALLS: ReadonlySet<string> = new Set();

/** Where a sequence of messages first breaks the rules: its position and what is wrong there. */
export interface ConversationFault {
  index: number;
  /** A predicate of "message N", e.g. `is not a valid message: its role is missing`. */
  reason: string;
}

/**
 * The first fault of `messages` as a continuation of a conversation whose trailing tool
 * messages may answer the calls `open` (see `answerableCalls`). The rules are what every
 * server needs: each message has a known shape, and a tool message answers a call of
 * the assistant message it follows (only tool messages between them), never an orphan.
 */
export function conversationFault(messages: readonly unknown[], open: ReadonlySet<string> = NO_CALLS): ConversationFault | undefined {
  return firstFault(messages, open, true);
}

/** Refuse (`storage_invalid`) a batch that is not a list of valid messages (whatever they answer: see `checkAnswers`). */
export function checkMessages(messages: readonly unknown[], action: string): void {
  if (!Array.isArray(messages)) throw invalidValue(action, 'the messages are not a list');
  for (const [index, message] of messages.entries()) {
    const shape = messageFault(message);
    if (shape) throw refusedAt(action, { index, reason: `is not a valid message: ${shape}` });
  }
}

/** Refuse (`storage_invalid`) a batch of valid messages holding a tool message that answers no call, given the stored `open` calls. */
export function checkAnswers(messages: readonly Message[], open: ReadonlySet<string>, action: string): void {
  const fault = firstFault(messages, open, false);
  if (fault) throw refusedAt(action, fault);
}

/** Whether a batch's first message is a tool message, the only case where the stored conversation's open calls matter. */
export function continuesCalls(messages: readonly Message[]): boolean {
  return messages[0]?.role === 'tool';
}

/** The call ids that a tool message appended after `messages` may answer: those of the assistant message its trailing tool messages follow. */
export function answerableCalls(messages: readonly Message[]): ReadonlySet<string> {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (message.role === 'assistant') return callIds(message);
    if (message.role !== 'tool') return NO_CALLS;
  }
  return NO_CALLS;
}

/** The ids of the calls an assistant message made. */
export function callIds(message: Message): ReadonlySet<string> {
  return message.role === 'assistant' && message.toolCalls ? new Set(message.toolCalls.map((call) => call.id)) : NO_CALLS;
}

function firstFault(messages: readonly unknown[], open: ReadonlySet<string>, shapes: boolean): ConversationFault | undefined {
  let calls = open;
  for (const [index, message] of messages.entries()) {
    const shape = shapes ? messageFault(message) : undefined;
    if (shape) return { index, reason: `is not a valid message: ${shape}` };
    const m = message as Message;
    if (m.role === 'assistant') calls = callIds(m);
    else if (m.role !== 'tool') calls = NO_CALLS;
    else if (!calls.has(m.toolCallId)) {
      return { index, reason: `is a tool message that answers no call of the assistant message before it (call id ${shown(m.toolCallId)})` };
    }
  }
  return undefined;
}

function refusedAt(action: string, fault: ConversationFault) {
  return invalidValue(action, `message ${fault.index} of the batch ${fault.reason}`);
}

/** Refuse (`storage_invalid`) a conversation id that is not a string. */
export function checkConversationId(id: unknown, action: string): void {
  if (typeof id !== 'string') throw invalidValue(action, `a conversation id is a string, got ${shown(id)}`);
}

/** Refuse (`storage_invalid`) a truncation length that is not a non-negative integer. */
export function checkLength(length: unknown, action: string): void {
  if (!Number.isInteger(length) || (length as number) < 0) {
    throw invalidValue(action, `the length to keep is a non-negative integer, got ${shown(length)}`);
  }
}

/** Refuse (`storage_invalid`) a number of messages to read that is not a whole number >= 1. */
export function checkCount(count: unknown, action: string): void {
  if (!Number.isInteger(count) || (count as number) < 1)
    throw invalidValue(action, `the number of messages to read is a whole number >= 1, got ${shown(count)}`);
}

/**
 * The first fault of the end of a conversation read on its own: as `conversationFault`, except
 * that its leading tool messages answer calls made before it (which were not read).
 */
export function tailFault(messages: readonly unknown[]): ConversationFault | undefined {
  const leading = new Set<string>();
  for (const message of messages) {
    if (!isRecord(message) || message.role !== 'tool' || typeof message.toolCallId !== 'string') break;
    leading.add(message.toolCallId);
  }
  return conversationFault(messages, leading);
}

/** Why `value` is not a conversation message, or undefined when it is one. Unknown extra fields are kept, not refused. */
function messageFault(value: unknown): string | undefined {
  if (!isRecord(value)) return `it is ${shown(value)}, not an object`;
  if (!ROLES.has(value.role)) return `its role is ${shown(value.role)}, not system, user, assistant or tool`;
  // A person's message may be a list of parts (text, images, files); any other message is text.
  if (value.role === 'user' && Array.isArray(value.content)) {
    const fault = partsFault(value.content, true);
    if (fault) return fault;
  } else if (typeof value.content !== 'string') return `its content is ${shown(value.content)}, not text`;
  if (value.role === 'user' && !ORIGINS.has(value.origin)) return `its origin is ${shown(value.origin)}, not user or runtime`;
  // The mark says a message holds others' words (see ToolMessage.untrusted): `true` or absent, nothing in between.
  if (value.untrusted !== undefined && value.untrusted !== true) return `its untrusted mark is ${shown(value.untrusted)}, not true`;
  if (value.role === 'assistant') return assistantFault(value);
  if (value.role === 'tool') {
    if (typeof value.toolCallId !== 'string') return `its toolCallId is ${shown(value.toolCallId)}, not a string`;
    if (typeof value.name !== 'string') return `its tool name is ${shown(value.name)}, not a string`;
    if (value.parts !== undefined) return partsFault(value.parts, false);
  }
  return undefined;
}

function assistantFault(message: Record<string, unknown>): string | undefined {
  if (message.provider !== undefined && !isRecord(message.provider)) return 'its provider fields are not an object';
  const { toolCalls } = message;
  if (toolCalls === undefined) return undefined;
  if (!Array.isArray(toolCalls)) return `its toolCalls are ${shown(toolCalls)}, not a list`;
  for (const [i, call] of toolCalls.entries()) {
    const fault = callFault(call);
    if (fault) return `its tool call ${i} ${fault}`;
  }
  return undefined;
}

function callFault(call: unknown): string | undefined {
  if (!isRecord(call)) return 'is not an object';
  if (typeof call.id !== 'string') return `has the id ${shown(call.id)}, not a string`;
  if (typeof call.name !== 'string') return `has the name ${shown(call.name)}, not a string`;
  if (call.provider !== undefined && !isRecord(call.provider)) return 'has provider fields that are not an object';
  if (call.idempotencyKey !== undefined && typeof call.idempotencyKey !== 'string') return 'has an idempotency key that is not a string';
  return undefined;
}
