import type { Message } from '../../core/types.js';
import type { EngineRequest } from '../types.js';
import type { OpenAICompatibleConfig } from './openai-compatible.js';
import { bodyAfterMessages, requestBody, toWireMessage } from './request.js';

/**
 * The JSON text of request bodies, exactly `JSON.stringify(requestBody(config, request))`, for one
 * engine (its config decides the wire form). A run without a context budget sends the whole stored
 * conversation on every request, and the memory store shares it frozen (`loadFrozen`): the JSON
 * of the frozen messages a request starts with is kept, so the next request that starts with the
 * same messages writes only what follows them, instead of the whole conversation again.
 */
export class RequestText {
  /** The frozen messages the last request started with, and their JSON, comma-separated. */
  #sent: readonly Message[] = [];
  #sentText = '';
  /** The JSON of each frozen message written so far (frozen is for good: its text stays right). */
  readonly #written = new WeakMap<Message, string>();

  constructor(readonly config: OpenAICompatibleConfig) {}

  /** The body of `request` as JSON text. */
  body(request: EngineRequest): string {
    const { config } = this;
    // The text is put together as JSON.stringify writes the body: the model, the messages, then the rest.
    if (typeof config.model !== 'string' || !keepsOrder(config.extraBody)) return JSON.stringify(requestBody(config, request));
    const rest = JSON.stringify(bodyAfterMessages(config, request));
    // `{}` when extraBody unset every later field.
    return `{"model":${JSON.stringify(config.model)},"messages":[${this.#messages(request.messages)}]${rest === '{}' ? '}' : `,${rest.slice(1)}`}`;
  }

  /** The messages' JSON, comma-separated, reusing the last request's frozen start when this one starts with it. */
  #messages(messages: readonly Message[]): string {
    const sent = this.#sent;
    let same = 0;
    while (same < sent.length && same < messages.length && messages[same] === sent[same]) same++;
    let text = same === sent.length ? this.#sentText : '';
    let at = same === sent.length ? same : 0;
    // The frozen start grows by the frozen messages that follow it.
    for (; at < messages.length; at++) {
      const message = messages[at]!;
      let written = this.#written.get(message);
      if (written === undefined) {
        if (!frozenThrough(message)) break;
        written = this.#wire(message);
        this.#written.set(message, written);
      }
      text = at === 0 ? written : `${text},${written}`;
    }
    this.#sent = messages.slice(0, at);
    this.#sentText = text;
    for (; at < messages.length; at++) text = at === 0 ? this.#wire(messages[at]!) : `${text},${this.#wire(messages[at]!)}`;
    return text;
  }

  #wire(message: Message): string {
    return JSON.stringify(toWireMessage(message, this.config.nativeTools));
  }
}

/**
 * Whether a body with `extra` spread last still starts with the model and the messages: it sets
 * neither, and has no integer key (an object lists those before every other key).
 */
function keepsOrder(extra: Record<string, unknown> | undefined): boolean {
  if (!extra) return true;
  return Object.keys(extra).every((key) => key !== 'model' && key !== 'messages' && !(/^(0|[1-9]\d*)$/.test(key) && Number(key) < 2 ** 32 - 1));
}

/** Whether `value` and everything it holds are frozen (a primitive is). */
function frozenThrough(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return true;
  if (!Object.isFrozen(value)) return false;
  for (const item of Object.values(value)) if (!frozenThrough(item)) return false;
  return true;
}
