import type { Message, ToolDefinition, ToolMessage } from '../../core/types.js';
import type { UntrustedSource } from '../../core/run.js';
import type { Tool } from '../../tools/types.js';

/** What a model turn's request held of untrusted content: the sources of its untrusted definitions and marked messages, in order. */
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
 * The untrusted content of a request (its messages as the engine gets them, and the sources of the
 * tool definitions it offers: see `definitionSources`), or undefined when there is none: the turn
 * is not exposed. Its sources are the definitions' first, then the marked tool results, oldest
 * first; a marked reply (what the model wrote after reading untrusted content) is a source only
 * when no other source comes before it, which is when what it read was trimmed out of the
 * request: otherwise what came before says it already.
 */
export function exposureOf(messages: readonly Message[], definitions: readonly UntrustedSource[] = []): Exposure | undefined {
  // Definitions hold no flows: a flow names a call whose result the argument was found in.
  let exposure: Exposure | undefined = definitions.length > 0 ? { sources: definitions.slice(), contents: definitions.map(() => '') } : undefined;
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
 * Who wrote the untrusted definitions among `offered` (a request's tools), each once, in the order
 * first offered, with the tools of theirs it offers: from each tool's `untrustedDefinition`.
 */
export function definitionSources(offered: readonly ToolDefinition[], toolOf: (name: string) => Tool | undefined): UntrustedSource[] {
  const bySource = new Map<string, string[]>();
  for (const { name } of offered) {
    const source = toolOf(name)?.untrustedDefinition;
    if (source === undefined) continue;
    const tools = bySource.get(source);
    if (tools) tools.push(name);
    else bySource.set(source, [name]);
  }
  return [...bySource].map(([name, tools]) => ({ callId: '', name, kind: 'definitions', tools }));
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
