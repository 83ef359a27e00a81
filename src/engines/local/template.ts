import type { Message } from '../../core/types.js';
import type { GgufInfo } from './gguf.js';
import { toWireMessage } from '../openai/request.js';

/** ChatML as a Jinja template (llama.cpp's own default): the fallback for models that carry none. */
export const CHATML_TEMPLATE =
  "{%- for message in messages -%}{{- '<|im_start|>' + message.role + '\\n' + message.content + '<|im_end|>\\n' -}}{%- endfor -%}" +
  "{%- if add_generation_prompt -%}{{- '<|im_start|>assistant\\n' -}}{%- endif -%}";

/** Where the chat template in use came from. */
export type TemplateSource = 'option' | 'model' | 'default';

/** The template to hand llama.cpp (undefined: the model's own, which llama.cpp reads itself) and where it came from. */
export function chooseTemplate(option: string | undefined, info: GgufInfo): { template: string | undefined; source: TemplateSource } {
  if (option !== undefined) return { template: option.trim().toLowerCase() === 'chatml' ? CHATML_TEMPLATE : option, source: 'option' };
  const own = info.metadata.get('tokenizer.chat_template');
  if (typeof own === 'string' && own.trim() !== '') return { template: undefined, source: 'model' };
  return { template: CHATML_TEMPLATE, source: 'default' };
}

/** A chat message as the template reads it. */
export interface TemplateMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/**
 * The conversation in the roles every chat template knows. Calls stay in the assistant's text
 * (tags included), results become runtime-marked user messages (as for any engine without
 * native tools), and neighbours of one role are joined: many templates insist that user and
 * assistant alternate.
 */
export function templateMessages(messages: readonly Message[]): TemplateMessage[] {
  const out: TemplateMessage[] = [];
  for (const message of messages) {
    const wire = toWireMessage(message, false) as unknown as TemplateMessage;
    const previous = out.at(-1);
    if (previous && previous.role === wire.role && wire.role !== 'system') previous.content += `\n\n${wire.content}`;
    else out.push({ role: wire.role, content: wire.content ?? '' });
  }
  return out;
}
