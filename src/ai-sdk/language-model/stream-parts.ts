// One reply's stream parts (any specification version) as engine events: text as it comes, each
// call once complete, then the usage and the finish. What the provider needs echoed on the next
// request (reasoning, signatures, item ids) is kept on the call and the assistant message.
import type { FinishReason, ToolCall, Usage } from '../../core/types.js';
import { EngineError } from '../../errors/engine-error.js';
import { said } from './call-errors.js';
import type { EngineEvent } from '../../engines/types.js';
import { type KeptReply, PROVIDER_KEY } from './call-options.js';
import type { AiSdkProviderFields, AiSdkUsage } from './model-shape.js';

type Part = { type?: unknown; [field: string]: unknown };

/** Reads the parts of one reply; `read` gives the events of each part, `end` those that close the reply. */
export class ReplyReader {
  #finish: { reason: FinishReason; usage: Usage | undefined } | undefined;
  readonly #reasoning = new Map<string, { text: string; providerOptions?: AiSdkProviderFields }>();
  #textFields: AiSdkProviderFields | undefined;
  #providerTools = false;

  constructor(readonly provider: string) {}

  /** The events of one stream part (none for most: starts, ends, metadata, a provider's own tools). */
  read(given: unknown): EngineEvent[] {
    if (typeof given !== 'object' || given === null) return [];
    const part = given as Part;
    switch (part.type) {
      case 'text-delta':
        this.#textFields = merged(this.#textFields, part.providerMetadata);
        return typeof part.delta === 'string' && part.delta !== '' ? [{ type: 'text', text: part.delta }] : [];
      case 'text-start':
      case 'text-end':
        this.#textFields = merged(this.#textFields, part.providerMetadata);
        return [];
      case 'reasoning-start':
      case 'reasoning-delta':
      case 'reasoning-end':
        this.#reason(part);
        return [];
      case 'tool-call':
        return this.#call(part);
      case 'stream-start':
        return Array.isArray(part.warnings)
          ? part.warnings.map((warning) => ({ type: 'warning', code: 'provider_warning', message: warningText(this.provider, warning) }))
          : [];
      case 'finish':
        this.#finish = { reason: finishReason(part.finishReason), usage: usageOf(part.usage as AiSdkUsage | undefined) };
        return [];
      case 'error':
        throw new EngineError('stream_error', `${this.provider} reported an error mid-stream: ${streamErrorText(part.error)}`);
      default:
        // tool-input-*, tool-result and tool-approval-request (a provider's own tools), file, source, custom, raw, response-metadata, ping.
        return [];
    }
  }

  /** The events that close the reply: its usage, then its finish (with what the provider needs echoed). A stream that ended without a finish was cut. */
  end(): EngineEvent[] {
    if (!this.#finish) throw new EngineError('stream_cut', `${this.provider} ended its stream without finishing the reply`);
    const events: EngineEvent[] = [];
    if (this.#finish.usage) events.push({ type: 'usage', usage: this.#finish.usage });
    const kept: KeptReply = {};
    if (this.#reasoning.size > 0) kept.reasoning = [...this.#reasoning.values()];
    if (this.#textFields) kept.text = this.#textFields;
    const provider = Object.keys(kept).length > 0 ? { [PROVIDER_KEY]: kept } : undefined;
    if (this.#providerTools)
      events.push({ type: 'warning', code: 'provider_tool', message: `${this.provider} ran a tool of its own; ambi-web runs only the agent's tools` });
    events.push({ type: 'finish', reason: this.#finish.reason, ...(provider ? { provider } : {}) });
    return events;
  }

  #reason(part: Part): void {
    const id = typeof part.id === 'string' ? part.id : '';
    const reasoning = this.#reasoning.get(id) ?? { text: '' };
    if (part.type === 'reasoning-delta' && typeof part.delta === 'string') reasoning.text += part.delta;
    const fields = merged(reasoning.providerOptions, part.providerMetadata);
    if (fields) reasoning.providerOptions = fields;
    this.#reasoning.set(id, reasoning);
  }

  #call(part: Part): EngineEvent[] {
    // A call the provider runs itself (a web search, say) is not the agent's to run.
    if (part.providerExecuted === true) {
      this.#providerTools = true;
      return [];
    }
    const call: ToolCall = { id: typeof part.toolCallId === 'string' ? part.toolCallId : '', name: String(part.toolName), arguments: argumentsOf(part.input) };
    const fields = merged(undefined, part.providerMetadata);
    if (fields) call.provider = { [PROVIDER_KEY]: fields };
    return [{ type: 'tool_call', call }];
  }
}

/** A call's input: JSON text by the specification (empty for a call without arguments); text that does not parse stays text, for the runner to refuse. */
function argumentsOf(input: unknown): unknown {
  if (typeof input !== 'string') return input ?? {};
  if (input.trim() === '') return {};
  try {
    return JSON.parse(input);
  } catch {
    return input;
  }
}

/** Provider fields merged by provider, later ones over earlier ones; only objects of objects are kept. */
function merged(base: AiSdkProviderFields | undefined, more: unknown): AiSdkProviderFields | undefined {
  if (typeof more !== 'object' || more === null || Array.isArray(more)) return base;
  let out = base;
  for (const [provider, fields] of Object.entries(more)) {
    if (typeof fields !== 'object' || fields === null || Array.isArray(fields)) continue;
    out ??= {};
    // As data, whatever the name (`__proto__` included).
    const value = { ...(Object.hasOwn(out, provider) ? out[provider] : {}), ...(fields as Record<string, unknown>) };
    Object.defineProperty(out, provider, { value, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** v3 and v4: `{ unified, raw }`; v2: the unified name alone. */
function finishReason(given: unknown): FinishReason {
  const unified = typeof given === 'object' && given !== null ? (given as { unified?: unknown }).unified : given;
  switch (unified) {
    case 'tool-calls':
      return 'tool_calls';
    case 'content-filter':
      return 'content_filter';
    case 'stop':
    case 'length':
    case 'error':
      return unified;
    default:
      return typeof unified === 'string' ? unified : 'other';
  }
}

/** The counts a reply reports, cache and reasoning tokens kept; undefined where the provider gave no totals (the runner then estimates). */
function usageOf(usage: AiSdkUsage | undefined): Usage | undefined {
  if (!usage) return undefined;
  const input =
    typeof usage.inputTokens === 'object' && usage.inputTokens !== null ? usage.inputTokens : { total: usage.inputTokens, cacheRead: usage.cachedInputTokens };
  const output =
    typeof usage.outputTokens === 'object' && usage.outputTokens !== null
      ? usage.outputTokens
      : { total: usage.outputTokens, reasoning: usage.reasoningTokens };
  if (typeof input.total !== 'number' || typeof output.total !== 'number') return undefined;
  const total = typeof usage.totalTokens === 'number' ? usage.totalTokens : input.total + output.total;
  const counted: Usage = { promptTokens: input.total, completionTokens: output.total, totalTokens: total };
  const extra = input as { cacheRead?: unknown; cacheWrite?: unknown };
  if (typeof extra.cacheRead === 'number') counted.cacheReadTokens = extra.cacheRead;
  if (typeof extra.cacheWrite === 'number') counted.cacheWriteTokens = extra.cacheWrite;
  if (typeof output.reasoning === 'number') counted.reasoningTokens = output.reasoning;
  return counted;
}

function warningText(provider: string, warning: unknown): string {
  const { type, feature, setting, details, message } = (typeof warning === 'object' && warning !== null ? warning : {}) as Record<string, unknown>;
  const what = [feature ?? setting, details ?? message].filter((piece) => typeof piece === 'string').join(': ');
  return `${provider}: ${typeof type === 'string' ? type : 'warning'}${what ? ` ${what}` : ''}`.slice(0, 500);
}

/** The words of a provider's mid-stream error (`{ type, message }` from the server, or an Error). */
function streamErrorText(error: unknown): string {
  if (typeof error === 'object' && error !== null && !(error instanceof Error)) {
    const { message, type } = error as { message?: unknown; type?: unknown };
    if (typeof message === 'string') return said(typeof type === 'string' ? `${type}: ${message}` : message);
  }
  return said(error);
}
