import { EngineError } from '../../errors/engine-error.js';
import { EngineHttpError } from '../../errors/engine-http-error.js';
import { newCallId } from '../../util/ids.js';
import type { Engine, EngineEvent, EngineRequest } from '../types.js';
import { sleep, throwIfAborted } from '../abort.js';
import type { ScriptedEngineConfig, ScriptedReply } from './scripted.js';

/** How many pieces a string reply is streamed in, so consumers see real deltas. */
const TEXT_PIECES = 3;

/**
 * An Engine that serves the script's replies in order to every request made to it, so an
 * agent and its leaves share one sequence. A reply is used up when its request starts,
 * even if that request is then aborted. String replies are plain text (a tagged call in
 * them is the runner's parser's business); `toolCalls` are native, hence `nativeTools: true`.
 */
export function createScriptedEngine(config: ScriptedEngineConfig): Engine {
  const replies = [...config.replies];
  let next = 0;
  return {
    nativeTools: true,
    accepts: config.accepts ?? { image: true, file: true },
    stream(request) {
      return serve(request, () => {
        if (next >= replies.length) {
          throw new EngineError(
            'script_exhausted',
            `The scripted engine has no reply left: its script had ${replies.length} ${replies.length === 1 ? 'reply' : 'replies'}, all used`,
          );
        }
        return replies[next++]!;
      });
    },
  };
}

async function* serve(request: EngineRequest, take: () => ScriptedReply): AsyncGenerator<EngineEvent> {
  throwIfAborted(request.signal);
  const reply = take();
  const shape = typeof reply === 'string' ? { text: reply } : reply;
  if (shape.delayMs !== undefined && shape.delayMs > 0) await sleep(shape.delayMs, request.signal);
  const { error } = shape;
  if (error) throw new EngineHttpError(error.status, `The model server answered ${error.status}: ${error.message}`, error.retryAfterMs);
  for (const text of splitText(shape.text ?? '')) {
    throwIfAborted(request.signal);
    yield { type: 'text', text };
  }
  const calls = shape.toolCalls ?? [];
  for (const call of calls) {
    throwIfAborted(request.signal);
    yield { type: 'tool_call', call: { id: call.id ?? newCallId(), name: call.name, arguments: call.arguments } };
  }
  throwIfAborted(request.signal);
  if (shape.usage) yield { type: 'usage', usage: shape.usage };
  yield { type: 'finish', reason: calls.length > 0 ? 'tool_calls' : 'stop' };
}

/** Split by code points (never inside a surrogate pair) into up to TEXT_PIECES pieces. */
function splitText(text: string): string[] {
  const chars = Array.from(text);
  const size = Math.max(1, Math.ceil(chars.length / TEXT_PIECES));
  const pieces: string[] = [];
  for (let i = 0; i < chars.length; i += size) pieces.push(chars.slice(i, i + size).join(''));
  return pieces;
}
