import { EngineError } from '../../errors/engine-error.js';
import { ContentError } from '../../errors/content-error.js';
import { errorMessage } from '../../errors/error-message.js';
import { newCallId } from '../../util/ids.js';
import { onAbort } from '../../util/abort-source.js';
import { abortedError, throwIfAborted } from '../abort.js';
import { deferredStream } from '../deferred-stream.js';
import type { Engine, EngineEvent, EngineRequest } from '../types.js';
import type { PromptApiAccess, PromptApiCoreOptions, PromptApiEvent } from './access.js';
import type { PromptApiConfig } from './prompt-api.js';
import { holdsImages, promptMessages } from './prompt-messages.js';
import { readReply, replyShape } from './reply-shape.js';

/** An Engine on the browser's built-in model, reached through `access` (this realm's `LanguageModel`, or the page's); none: every request fails `engine_unavailable`. */
export function createPromptApiEngine(config: PromptApiConfig, access: PromptApiAccess | undefined): Engine {
  return {
    nativeTools: true,
    // The Prompt API takes images (`expectedInputs: [{ type: 'image' }]`, a Blob per image).
    accepts: { image: true },
    info: { provider: 'chrome.prompt_api' },
    stream: (request) =>
      deferredStream(
        () => streamPrompt(config, access, request),
        (error) => engineErrorOf(error, request.signal),
      ),
  };
}

/** The options `availability()` and `create()` share; `images`: the session takes images too. */
export function coreOptions(config: PromptApiConfig, images = false): PromptApiCoreOptions {
  const expected = [{ type: 'text' as const, languages: config.languages }];
  const options: PromptApiCoreOptions = { expectedInputs: images ? [...expected, { type: 'image' }] : expected, expectedOutputs: expected };
  if (config.temperature !== undefined) options.temperature = config.temperature;
  if (config.topK !== undefined) options.topK = config.topK;
  return options;
}

async function* streamPrompt(config: PromptApiConfig, access: PromptApiAccess | undefined, request: EngineRequest): AsyncGenerator<EngineEvent> {
  throwIfAborted(request.signal);
  if (!access) throw unavailable('this browser has no Prompt API (no `LanguageModel`)');
  const core = coreOptions(config, holdsImages(request.messages));
  const availability = await access.availability(core);
  throwIfAborted(request.signal);
  if (availability === 'unavailable') throw unavailable(`\`LanguageModel.availability()\` says "unavailable" for ${config.languages.join(', ')}`);
  const shape = replyShape(request, config.maxCallsPerReply);
  const { initialPrompts, input } = promptMessages(request.messages, shape?.instructions ?? '');
  const stream = await access.prompt({ session: { ...core, initialPrompts }, input, ...(shape ? { responseConstraint: shape.schema } : {}) });
  const reader = stream.getReader();
  // The run's abort cancels the prompt where it runs (on the page, for a runner worker).
  const unhook = request.signal ? onAbort(request.signal, () => void reader.cancel(request.signal?.reason).catch(() => {})) : undefined;
  let raw = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      throwIfAborted(request.signal);
      if (done) break;
      const event = value as PromptApiEvent;
      if (event.type === 'download') yield { type: 'download', loaded: event.loaded, total: event.total };
      else if (!shape) yield { type: 'text', text: event.text };
      else raw += event.text;
    }
  } finally {
    unhook?.();
    reader.releaseLock();
  }
  if (!shape) {
    yield { type: 'finish', reason: 'stop' };
    return;
  }
  const reply = readReply(raw, shape);
  if (!reply) throw new EngineError('malformed_stream', `The built-in model's reply is not the JSON its response constraint asks for: ${raw.slice(0, 200)}`);
  if (reply.text) yield { type: 'text', text: reply.text };
  for (const call of reply.calls) yield { type: 'tool_call', call: { id: newCallId(), name: call.name, arguments: call.arguments } };
  yield { type: 'finish', reason: reply.calls.length > 0 ? 'tool_calls' : 'stop' };
}

function unavailable(why: string): EngineError {
  return new EngineError('engine_unavailable', `The browser's built-in model cannot be used: ${why}`);
}

/**
 * The Prompt API's failures (DOMExceptions, also after crossing from the page) as coded errors:
 * a model that cannot run or be downloaded here is `engine_unavailable`, an input past its context
 * `context_overflow`, an abort `aborted`.
 */
function engineErrorOf(error: unknown, signal: AbortSignal | undefined): unknown {
  if (signal?.aborted) return abortedError(signal);
  if (error instanceof EngineError || error instanceof ContentError) return error;
  const name = typeof error === 'object' && error !== null ? (error as { name?: unknown }).name : undefined;
  switch (name) {
    case 'AbortError':
      return abortedError(signal);
    case 'NotSupportedError':
    case 'NotAllowedError':
    case 'InvalidStateError':
    case 'OperationError':
      return new EngineError(
        'engine_unavailable',
        `The browser's built-in model cannot be used (${String(name)}: ${errorMessage(error)}). A model still to download must be started from a click on the page (\`LanguageModel.create()\`).`,
        { cause: error },
      );
    case 'QuotaExceededError':
      return new EngineError('context_overflow', `The request does not fit in the built-in model's context: ${errorMessage(error)}`, { cause: error });
    default:
      return new EngineError('engine_error', `The browser's built-in model failed: ${errorMessage(error)}`, { cause: error });
  }
}
