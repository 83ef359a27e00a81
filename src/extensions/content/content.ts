import type { ContentPart } from '../../core/parts.js';
import type { Message, ToolMessage, ToolResult, UserMessage } from '../../core/types.js';
import { toolFailure } from '../../call/result.js';
import { ContentError } from '../../errors/content-error.js';
import { contentText } from '../../parts/content-text.js';
import { DEFAULT_MAX_CONVERSATION_BYTES, DEFAULT_MAX_PART_BYTES } from '../../parts/limits.js';
import { partSummary, sizeText } from '../../parts/part-label.js';
import { mediaOf, messagesBytes, partBytes } from '../../parts/sizes.js';
import type { RunExtension, TurnRequest } from '../../runner/extension.js';
import type { RunSetup } from '../../runner/run-setup.js';
import { kindOf, takes } from './accepts.js';
import { describedImage } from './described.js';

/**
 * Parts beyond text (images, files), under the agent's caps and the engine's eyes:
 *
 *   open        the conversation's parts and the person's new ones within `maxConversationBytes`, and
 *               the person's parts ones the engine takes (`Engine.accepts`), or images the app
 *               describes (`describeImage`): else `unsupported_content`, before any request
 *   afterCall   a tool's parts within `maxPartBytes` and the conversation's cap, else the call fails
 *               `content_too_large` (its output said in the message, the parts not kept)
 *   beforeTurn  the request as the engine gets it: a person's part it does not take fails the run
 *               `unsupported_content` (an image is described where the app says how); a tool's is
 *               left out, the tool message saying so (and a `warning` event, once per part)
 */
export function contentExtension(setup: RunSetup): RunExtension {
  const { agent } = setup;
  const maxPart = agent.maxPartBytes ?? DEFAULT_MAX_PART_BYTES;
  const maxConversation = agent.maxConversationBytes ?? DEFAULT_MAX_CONVERSATION_BYTES;
  const accepts = agent.engine.accepts;
  const describe = agent.describeImage;
  /** The bytes of the parts of the conversation as the run reads it, its new ones included. */
  let bytes = 0;
  const warned = new WeakSet<object>();

  /** A person's message as the engine takes it: its parts it cannot take described, or the run refused. */
  const forEngine = async (message: UserMessage, at: number, userAt: number): Promise<UserMessage> => {
    if (typeof message.content === 'string' || message.content.every((part) => takes(accepts, part))) return message;
    const parts: ContentPart[] = [];
    for (const [i, part] of message.content.entries()) {
      if (takes(accepts, part)) parts.push(part);
      else if (describe && kindOf(part) === 'image') parts.push({ type: 'text', text: await describedImage(describe, part, setup.signal) });
      else
        throw unsupported(
          `part ${i + 1} of ${at === userAt ? "the person's message" : `message ${at + 1} of the request`} (${partSummary(part)})`,
          part,
          false,
        );
    }
    const content = parts.every((part) => part.type === 'text') ? contentText(parts) : parts;
    return { ...message, content };
  };

  /** A tool's message as the engine takes it: parts it cannot take described or left out, the message saying so. */
  const toolForEngine = async (message: ToolMessage): Promise<ToolMessage> => {
    const parts = message.parts ?? [];
    if (parts.every((part) => takes(accepts, part))) return message;
    const kept: ToolMessage['parts'] = [];
    const notes: string[] = [];
    for (const part of parts) {
      if (takes(accepts, part)) kept.push(part);
      else if (describe && kindOf(part) === 'image') notes.push(await describedImage(describe, part, setup.signal));
      else {
        notes.push(`[${partSummary(part)}: not shown, this model takes no ${kindOf(part)}s]`);
        if (!warned.has(part)) {
          warned.add(part);
          setup.emit({
            type: 'warning',
            code: 'unsupported_content',
            message: `A ${partSummary(part)} from "${message.name}" was left out: the engine takes no ${kindOf(part)}s`,
          });
        }
      }
    }
    const { parts: _, ...rest } = message;
    return { ...rest, content: `${message.content}\n${notes.join('\n')}`, ...(kept.length > 0 ? { parts: kept } : {}) };
  };

  return {
    name: 'content',
    async open(start) {
      // Read after the extensions that choose how it is read (a context budget's end of it).
      bytes = messagesBytes((await start.history()).messages);
      const added = setup.content ?? [];
      for (const part of added) bytes += partBytes(part);
      if (bytes > maxConversation) {
        throw new ContentError(
          'content_too_large',
          'the message',
          `The conversation's parts would hold ${sizeText(bytes)} with this message, over maxConversationBytes (${sizeText(maxConversation)})`,
        );
      }
      // Refused before anything is stored or sent: a part of the person's the engine will never take.
      added.forEach((part, i) => {
        if (!takes(accepts, part) && !(describe && kindOf(part) === 'image'))
          throw unsupported(`part ${i + 1} of the message (${partSummary(part)})`, part, false);
      });
    },
    afterCall(call, result) {
      if (!result.ok || !result.parts) return result;
      const over = result.parts.find((part) => partBytes(part) > maxPart);
      const added = result.parts.reduce((sum, part) => sum + partBytes(part), 0);
      if (!over && bytes + added <= maxConversation) {
        bytes += added;
        return result;
      }
      const why = over
        ? `its ${partSummary(over)} is over maxPartBytes (${sizeText(maxPart)})`
        : `its parts (${sizeText(added)}) would take the conversation's past maxConversationBytes (${sizeText(maxConversation)})`;
      return tooLarge(result, call.name, why);
    },
    async beforeTurn(request: TurnRequest) {
      const messages = request.engine.messages;
      if (!messages.some((message) => mediaOf(message).length > 0)) return;
      request.engine.messages = await Promise.all(
        messages.map((message: Message, at) =>
          message.role === 'user' ? forEngine(message, at, request.userAt) : message.role === 'tool' && message.parts ? toolForEngine(message) : message,
        ),
      );
    },
  };
}

/** The call's failure: the tool ran, and its parts are too large to keep (its output is said, for the model to use). */
function tooLarge(result: Extract<ToolResult, { ok: true }>, name: string, why: string): ToolResult {
  const output = JSON.stringify(result.output);
  const message = `Tool "${name}" ran, but ${why}: its parts were not kept. Its output: ${output}`;
  const { parts: _, ...rest } = result;
  return { ...toolFailure(rest, 'content_too_large', message, result.attempts, result.durationMs), ...(result.untrusted ? { untrusted: true } : {}) };
}

function unsupported(where: string, part: ContentPart, described: boolean): ContentError {
  const kind = kindOf(part);
  const how = kind === 'image' && !described ? ' (describeImage turns images into words for such a model)' : '';
  return new ContentError('unsupported_content', where, `The engine takes no ${kind}s: ${where} cannot be sent${how}`);
}
