import type { RunEvent, RunResult } from '../core/run.js';
import type { Message, ToolResult } from '../core/types.js';
import type { CallHooks, CallVerdict, ResolvedArguments, RunCall } from '../call/types.js';
import { errorMessage } from '../errors/error-message.js';
import { isThenable } from '../util/thenable.js';
import type { AnswerVerdict, History, Opening, RunExtension, RunOutcome, TurnRequest } from './extension.js';
import type { ModelTurn } from './model-turn.js';
import type { RunSetup } from './run-setup.js';
import type { TraceContext } from '../tools/types.js';

/** Make the extensions a run needs, in the agent's order (each loaded on first need by its loader). */
export async function extensionsFor(setup: RunSetup): Promise<ExtensionSet> {
  const wanted = setup.agent.extensions.filter((loader) => loader.wanted(setup));
  const factories = await Promise.all(wanted.map((loader) => loader.load()));
  return new ExtensionSet(factories.map((make) => make(setup)));
}

/**
 * A run's extensions, called in order at each hook (see RunExtension). For a call, they are
 * the pipeline's hooks: their verdicts are combined (the first refusal or known result wins,
 * then a decision already given, then a request to ask), and a result passes through each.
 */
export class ExtensionSet implements CallHooks {
  readonly #list: readonly RunExtension[];
  readonly #events: ReadonlyArray<RunExtension & Pick<Required<RunExtension>, 'event'>>;
  /** Whether any extension takes part in calls: a run without such an extension decides its calls without waiting on one. */
  readonly #beforeCall: boolean;
  readonly #afterCall: boolean;
  readonly #resolving: readonly RunExtension[];
  /** Told of a failure of an extension's `afterCall`, which must not end the run. */
  warn: (event: RunEvent) => void = () => {};

  constructor(list: readonly RunExtension[]) {
    this.#list = list;
    this.#events = list.filter((extension): extension is RunExtension & Pick<Required<RunExtension>, 'event'> => extension.event !== undefined);
    this.#beforeCall = list.some((extension) => extension.beforeCall);
    this.#afterCall = list.some((extension) => extension.afterCall);
    this.#resolving = list.filter((extension) => extension.resolveArguments);
  }

  readHistory(): Promise<History> | undefined {
    for (const extension of this.#list) {
      const reading = extension.readHistory?.();
      if (reading) return reading;
    }
    return undefined;
  }

  async open(history: readonly Message[]): Promise<Opening> {
    const opening: Opening = {};
    for (const extension of this.#list) {
      const found = await extension.open?.(history);
      if (found?.results) (opening.results ??= []).push(...found.results);
      if (found?.messages) (opening.messages ??= []).push(...found.messages);
      if (found?.resume) opening.resume ??= found.resume;
    }
    return opening;
  }

  async beforeTurn(request: TurnRequest): Promise<void> {
    for (const extension of this.#list) await extension.beforeTurn?.(request);
  }

  async afterTurn(turn: ModelTurn): Promise<void> {
    for (const extension of this.#list) await extension.afterTurn?.(turn);
  }

  /** Whether any extension holds this call until its reply ends (see RunExtension.holdsCall). */
  holdsCall(call: RunCall): boolean {
    for (const extension of this.#list) if (extension.holdsCall?.(call)) return true;
    return false;
  }

  /** Each extension in turn puts in what the arguments refer to; undefined, at once, where none changes them. */
  resolve(call: RunCall, args: unknown): ResolvedArguments | Promise<ResolvedArguments | undefined> | undefined {
    if (this.#resolving.length === 0) return undefined;
    if (this.#resolving.length === 1) return this.#resolving[0]!.resolveArguments!(call, args);
    return this.#resolveAll(call, args);
  }

  async #resolveAll(call: RunCall, args: unknown): Promise<ResolvedArguments | undefined> {
    let current: ResolvedArguments | undefined;
    for (const extension of this.#resolving) {
      const resolved = await extension.resolveArguments!(call, current?.ok ? current.value : args);
      if (resolved && !resolved.ok) return resolved;
      if (resolved) current = resolved;
    }
    return current;
  }

  before(call: RunCall): Promise<CallVerdict | undefined> | undefined {
    return this.#beforeCall ? this.#before(call) : undefined;
  }

  async #before(call: RunCall): Promise<CallVerdict | undefined> {
    let combined: CallVerdict | undefined;
    for (const extension of this.#list) {
      const verdict = await extension.beforeCall?.(call);
      if (!verdict || (verdict.kind === 'run' && !verdict.because && !verdict.standing)) continue;
      if (verdict.kind === 'refuse' || verdict.kind === 'settled') return verdict;
      if (verdict.kind === 'decided' || combined?.kind !== 'decided') combined = merge(combined, verdict);
    }
    return combined;
  }

  after(call: RunCall, result: ToolResult): Promise<ToolResult> | ToolResult {
    return this.#afterCall ? this.#after(call, result, 0) : result;
  }

  /** The result through each extension's `afterCall` from `from` on; awaited only where one answers with a promise. */
  #after(call: RunCall, result: ToolResult, from: number): Promise<ToolResult> | ToolResult {
    let final = result;
    for (let at = from; at < this.#list.length; at++) {
      const extension = this.#list[at]!;
      if (!extension.afterCall) continue;
      const failed = (error: unknown) =>
        this.warn({ type: 'warning', code: 'extension_failed', message: `${extension.name} failed on the result of "${call.name}": ${errorMessage(error)}` });
      let next: ToolResult | Promise<ToolResult>;
      try {
        next = extension.afterCall(call, final);
      } catch (error) {
        failed(error);
        continue;
      }
      if (!isThenable(next)) {
        final = next;
        continue;
      }
      const before = final;
      return Promise.resolve(next).then(
        (value) => this.#after(call, value, at + 1),
        (error: unknown) => {
          failed(error);
          return this.#after(call, before, at + 1);
        },
      );
    }
    return final;
  }

  /** The first answer verdict that asks again; else the value the last one gave. */
  async answer(text: string, lastTurn: boolean): Promise<AnswerVerdict> {
    let accepted: AnswerVerdict = { ok: true };
    for (const extension of this.#list) {
      const verdict = await extension.answer?.(text, lastTurn);
      if (!verdict) continue;
      if (!verdict.ok) return verdict;
      if ('value' in verdict) accepted = verdict;
    }
    return accepted;
  }

  /** A message written from the latest model reply, as every extension adorns it (see RunExtension.reply). */
  reply<M extends Message>(message: M): M {
    let adorned = message;
    for (const extension of this.#list) if (extension.reply) adorned = extension.reply(adorned) as M;
    return adorned;
  }

  event(event: RunEvent): RunEvent {
    let adorned = event;
    for (const extension of this.#events) adorned = extension.event(adorned);
    return adorned;
  }

  /** Where a call's trace context comes from, if an extension has one (a traced run). */
  traceContextSource(): ((callId: string) => Promise<TraceContext | undefined>) | undefined {
    const tracing = this.#list.filter((extension) => extension.traceContext);
    if (tracing.length === 0) return undefined;
    return async (callId) => {
      for (const extension of tracing) {
        const found = await extension.traceContext?.(callId);
        if (found) return found;
      }
      return undefined;
    };
  }

  /** The run's result as every extension adorns it (see RunExtension.result). */
  async result(result: RunResult): Promise<RunResult> {
    let adorned = result;
    for (const extension of this.#list) if (extension.result) adorned = await extension.result(adorned);
    return adorned;
  }

  /** Every extension hears the end, even if one of them fails. */
  async end(outcome: RunOutcome): Promise<void> {
    for (const extension of this.#list) await Promise.resolve(extension.end?.(outcome)).catch(() => {});
  }
}

/**
 * Two asks are one ask, with what each says of why; a `run` that says why (should the tool's rule
 * ask) joins an ask the same way, and stays a `run` with another such one. A decision given
 * before answers either.
 */
function merge(before: CallVerdict | undefined, next: CallVerdict): CallVerdict {
  if ((before?.kind !== 'ask' && before?.kind !== 'run') || (next.kind !== 'ask' && next.kind !== 'run')) return next;
  const kind = before.kind === 'ask' || next.kind === 'ask' ? 'ask' : 'run';
  return { kind, because: { ...before.because, ...next.because }, standing: { tainted: Boolean(before.standing?.tainted || next.standing?.tainted) } };
}
