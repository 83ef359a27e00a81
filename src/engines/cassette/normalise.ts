// What a recorded request and its response look like in a cassette, and what a live request is
// compared as on replay: the same function, so that ids, keys and clocks never make a difference.
import type { Message, ToolCall } from '../../core/types.js';
import type { ContentPart, MediaPart } from '../../core/parts.js';
import type { EngineEvent, EngineRequest } from '../types.js';
import type { CassetteRequest } from './cassette.js';
import type { PartHashes } from './part-hashes.js';

/** ISO 8601 date-times (what `new Date().toISOString()` and most servers write): a clock, not content. */
const TIMESTAMP = /\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?(?![\w:.])/g;
/** Deeper than this, a value is written as a marker rather than copied (no request nests so deep: arguments stop at 64). */
const MAX_DEPTH = 256;

/**
 * Call ids renamed `call_1`, `call_2`… in the order they first appear in a run's requests and
 * responses: what a server or the runner chose at random reads the same in every recording.
 */
export class CallNames {
  readonly #names = new Map<string, string>();

  /** The stable name of `id` (a new one for an id not seen before). */
  name(id: string): string {
    let name = this.#names.get(id);
    if (name === undefined) {
      name = `call_${this.#names.size + 1}`;
      this.#names.set(id, name);
    }
    return name;
  }

  /** On replay, a served id is already a stable name: it stands for itself. */
  keep(id: string): void {
    if (!this.#names.has(id)) this.#names.set(id, id);
  }
}

/** The request as a cassette holds it: what an engine sends, normalised (see `CassetteRequest`); its parts named by `parts` (read first). */
export function requestRecord(request: EngineRequest, names: CallNames, parts?: PartHashes): CassetteRequest {
  const record: CassetteRequest = {
    messages: request.messages.map((message) => messageRecord(message, names, parts)),
    tools: request.tools.map((tool) => ({ name: tool.name, description: tool.description, parameters: copy(tool.parameters, false) as never })),
  };
  if (request.toolChoice !== undefined) record.toolChoice = copy(request.toolChoice, false) as never;
  if (request.output !== undefined) record.output = { name: request.output.name, schema: copy(request.output.schema, false) as never };
  if (request.callTags !== undefined) record.callTags = { open: request.callTags.open, close: request.callTags.close };
  return record;
}

/** The events of a response as a cassette holds them: copies, with call ids named. */
export function eventsRecord(events: readonly EngineEvent[], names: CallNames): EngineEvent[] {
  return events.map((event) => {
    if (event.type !== 'tool_call') return copy(event, false) as EngineEvent;
    const call: ToolCall = { id: names.name(event.call.id), name: event.call.name, arguments: copy(event.call.arguments, false) };
    if (event.call.provider !== undefined) call.provider = copy(event.call.provider, false) as never;
    return { type: 'tool_call', call };
  });
}

function messageRecord(message: Message, names: CallNames, parts: PartHashes | undefined): Message {
  switch (message.role) {
    case 'system':
      return { role: 'system', content: clock(message.content) };
    case 'user': {
      const content = typeof message.content === 'string' ? clock(message.content) : message.content.map((part) => partRecord(part, parts));
      // Only the runtime's origin changes what an engine sends (a marked note); `untrusted` marks never reach a server.
      return message.origin === 'runtime' ? { role: 'user', content, origin: 'runtime' } : { role: 'user', content };
    }
    case 'assistant': {
      const record: Message = { role: 'assistant', content: clock(message.content) };
      if (message.toolCalls && message.toolCalls.length > 0) {
        // Idempotency keys are the runner's own: no engine sends them.
        record.toolCalls = message.toolCalls.map((call) => {
          const named: ToolCall = { id: names.name(call.id), name: call.name, arguments: copy(call.arguments, true) };
          if (call.provider !== undefined) named.provider = copy(call.provider, false) as never;
          return named;
        });
      }
      if (message.provider !== undefined) record.provider = copy(message.provider, false) as never;
      return record;
    }
    case 'tool': {
      const record: Message = { role: 'tool', toolCallId: names.name(message.toolCallId), name: message.name, content: clock(message.content) };
      if (message.parts && message.parts.length > 0) record.parts = message.parts.map((part) => partRecord(part, parts) as MediaPart);
      return record;
    }
    default:
      // A message of a role the SDK does not write: kept as given, so a difference in it still shows.
      return copy(message, true) as Message;
  }
}

/** A part as a cassette holds it: its bytes named by hash (see PartHashes). */
function partRecord(part: ContentPart, parts: PartHashes | undefined): ContentPart {
  if (parts) return parts.record(part, clock);
  return part.type === 'text'
    ? { type: 'text', text: clock(part.text) }
    : (copy({ ...part, ...(part.type === 'image' ? { image: 'unread' } : { data: 'unread' }) }, false) as ContentPart);
}

/** Text with its date-times written `<timestamp>`. */
function clock(text: string): string {
  return typeof text === 'string' ? text.replace(TIMESTAMP, '<timestamp>') : text;
}

/**
 * A JSON copy of `value` (own enumerable keys, `__proto__` kept as a plain key, `undefined` left
 * out), its strings' date-times normalised where `clocks` says.
 */
function copy(value: unknown, clocks: boolean, depth = 0): unknown {
  if (typeof value === 'string') return clocks ? clock(value) : value;
  if (typeof value !== 'object' || value === null) return typeof value === 'number' && !Number.isFinite(value) ? null : value;
  if (depth >= MAX_DEPTH) return '[nested too deep]';
  if (Array.isArray(value)) return value.map((item) => (item === undefined ? null : copy(item, clocks, depth + 1)));
  const entries: Array<[string, unknown]> = [];
  for (const key of Object.keys(value)) {
    const item = (value as Record<string, unknown>)[key];
    if (item !== undefined && typeof item !== 'function') entries.push([key, copy(item, clocks, depth + 1)]);
  }
  // fromEntries defines each key as its own property: a `__proto__` key stays data, never a prototype.
  return Object.fromEntries(entries);
}
