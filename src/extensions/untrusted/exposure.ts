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

/** The untrusted content of `messages` (a request as the engine gets it), or undefined when there is none: the turn is not exposed. */
export function exposureOf(messages: readonly Message[]): Exposure | undefined {
  let exposure: Exposure | undefined;
  for (const message of messages) {
    if (!isMarked(message)) continue;
    exposure ??= { sources: [], contents: [] };
    exposure.sources.push(sourceOf(message));
    exposure.contents.push(typeof message.content === 'string' ? message.content : '');
  }
  return exposure;
}

/** A marked message as a source: the call whose result it holds (a marked message of another role, which the SDK never writes, is named by its role). */
function sourceOf(message: Message): UntrustedSource {
  if (message.role === 'tool') return { callId: (message as ToolMessage).toolCallId, name: (message as ToolMessage).name };
  return { callId: '', name: message.role };
}
