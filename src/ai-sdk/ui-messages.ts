import type { UIMessage } from 'ai';
import { AmbiError } from '../errors/ambi-error.js';

/** The roles a UI message has in the AI SDK. */
const ROLES = new Set(['system', 'user', 'assistant']);

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Refuse (`invalid_message`) what `useChat` never sends: messages that are not a list, a message
 * that is not an object or has an unknown role, `parts` that are not a list, a part without a
 * string `type`, a text part without string `text`, a tool part without a `toolCallId`. Checked
 * before the request is read, so a malformed one starts no run and stores nothing; the fault's
 * place is named (`messages[1].parts[0]`).
 */
export function checkMessages(messages: unknown): asserts messages is UIMessage[] {
  if (!Array.isArray(messages)) throw invalid('messages', 'is not a list of UI messages');
  for (const [at, message] of messages.entries()) {
    const where = `messages[${at}]`;
    if (!isRecord(message)) throw invalid(where, 'is not a message object');
    if (typeof message.role !== 'string' || !ROLES.has(message.role)) throw invalid(`${where}.role`, 'is not system, user or assistant');
    if (!Array.isArray(message.parts)) throw invalid(`${where}.parts`, 'is not a list of parts');
    for (const [index, part] of message.parts.entries()) {
      const fault = partFault(part);
      if (fault) throw invalid(`${where}.parts[${index}]`, fault);
    }
  }
}

/** What is wrong with a part, if anything: the fields this transport reads must be what the AI SDK writes. */
function partFault(part: unknown): string | undefined {
  if (!isRecord(part)) return 'is not a part object';
  const { type } = part;
  if (typeof type !== 'string' || type === '') return 'has no type';
  if ((type === 'text' || type === 'reasoning') && typeof part.text !== 'string') return `is a ${type} part without a string text`;
  if ((type === 'dynamic-tool' || type.startsWith('tool-')) && typeof part.toolCallId !== 'string') return 'is a tool part without a toolCallId';
  if (type === 'file' && (typeof part.url !== 'string' || typeof part.mediaType !== 'string')) return 'is a file part without a string url and mediaType';
  if (type === 'file' && part.filename !== undefined && typeof part.filename !== 'string') return 'is a file part whose filename is not a string';
  return undefined;
}

function invalid(where: string, why: string): AmbiError {
  return new AmbiError('invalid_message', `The chat request's ${where} ${why}: nothing was run or stored`);
}
