import type { Message, ToolMessage } from '../../core/types.js';
import type { UntrustedSource } from '../../core/run.js';

/** What a model turn's request held of untrusted content: its marked tool messages, oldest first. */
export interface Exposure {
  sources: UntrustedSource[];
  /** The content of each source, in the same order: what a call's arguments are searched in (see flows.ts). */
  contents: string[];
}

/**
 * Whether a message carries the mark. Any truthy mark counts: a mark spelt wrong by a store or an
 * app errs on the side of caution (the stores refuse anything but `true`).
 */
export function isMarked(message: Message): boolean {
  return Boolean((message as { untrusted?: unknown }).untrusted);
}

/**
 * The untrusted content of `messages` (a request as the engine gets it), or undefined when there is
 * none: the turn is not exposed. Its sources are the marked tool results, oldest first; a marked
 * reply (what the model wrote after reading untrusted content) is a source only when no marked
 * message comes before it, which is when what it read was trimmed out of the request: otherwise
 * what came before says it already.
 */
export function exposureOf(messages: readonly Message[]): Exposure | undefined {
  let exposure: Exposure | undefined;
  for (const message of messages) {
    if (!isMarked(message) || (exposure && message.role !== 'tool')) continue;
    exposure ??= { sources: [], contents: [] };
    exposure.sources.push(sourceOf(message));
    // Flows point at call results only: a reply's words are the model's, and a flow names a call.
    exposure.contents.push(message.role === 'tool' && typeof message.content === 'string' ? message.content : '');
  }
  return exposure;
}

/**
 * A marked message as a source: the call whose result it holds; a reply the model wrote after
 * reading untrusted content (or the runtime's note on one); a marked message of another kind,
 * which the SDK never writes, named by its role.
 */
function sourceOf(message: Message): UntrustedSource {
  if (message.role === 'tool') return { callId: (message as ToolMessage).toolCallId, name: (message as ToolMessage).name };
  if (message.role === 'assistant') return { callId: '', name: 'assistant', kind: 'reply' };
  if (message.role === 'user' && message.origin === 'runtime') return { callId: '', name: 'runtime', kind: 'reply' };
  return { callId: '', name: message.role };
}
