import type { RunEvent, RunResult } from '../core/run.js';
import type { ToolResult } from '../core/types.js';
import type { CallHooks, CallVerdict, RunCall } from '../call/types.js';
import { errorMessage } from '../errors/error-message.js';
import { isThenable } from '../util/thenable.js';
import type { RunExtension, RunOutcome, RunStart, TurnEnd, TurnRequest } from './extension.js';
import type { RunSetup } from './run-setup.js';

/** Make the extensions a run needs, in the agent's order (each loaded on first need by its loader). */
export async function extensionsFor(setup: RunSetup): Promise<ExtensionSet> {
  const wanted = setup.agent.extensions.filter((loader) => loader.wanted(setup));
  const factories = await Promise.all(wanted.map((loader) => loader.load()));
  return new ExtensionSet(factories.map((make) => make(setup)));
}

type With<K extends keyof RunExtension> = RunExtension & Pick<Required<RunExtension>, K>;

/**
 * A run's extensions, called in order at each hook (see RunExtension). For a call, they are the
 * pipeline's hooks: their verdicts are combined (the first refusal wins; arguments one puts in are
 * what the next sees; asks join), and a result passes through each.
 */
export class ExtensionSet implements CallHooks {
  readonly #list: readonly RunExtension[];
  // Only those that take part in each per-call and per-event hook: a run without them waits on nothing.
  readonly #events: ReadonlyArray<With<'event'>>;
  readonly #screening: ReadonlyArray<With<'beforeCall'>>;
  readonly #afterCall: boolean;
  /** Told of a failure of an extension's `afterCall`, which must not end the run. */
  warn: (event: RunEvent) => void = () => {};

  constructor(list: readonly RunExtension[]) {
    this.#list = list;
    this.#events = list.filter((extension): extension is With<'event'> => extension.event !== undefined);
    this.#screening = list.filter((extension): extension is With<'beforeCall'> => extension.beforeCall !== undefined);
    this.#afterCall = list.some((extension) => extension.afterCall);
  }

  async open(start: RunStart): Promise<void> {
    for (const extension of this.#list) await extension.open?.(start);
  }

  async beforeTurn(request: TurnRequest): Promise<void> {
    for (const extension of this.#list) await extension.beforeTurn?.(request);
  }

  async afterTurn(turn: TurnEnd): Promise<void> {
    for (const extension of this.#list) await extension.afterTurn?.(turn);
  }

  /** The extensions' combined say on a call (see CallVerdict); undefined, at once, where none has one. */
  before(call: RunCall, args: unknown): CallVerdict | Promise<CallVerdict | undefined> | undefined {
    let combined: CallVerdict | undefined;
    for (let at = 0; at < this.#screening.length; at++) {
      const said = this.#screening[at]!.beforeCall(call, argumentsOf(combined) ?? args);
      if (isThenable(said)) return this.#beforeRest(call, args, at, said, combined);
      combined = joined(combined, said);
      if (combined?.kind === 'refuse') return combined;
    }
    return combined;
  }

  /** The rest of `before` once an extension answers with a promise. */
  async #beforeRest(
    call: RunCall,
    args: unknown,
    at: number,
    pending: PromiseLike<CallVerdict | undefined>,
    before: CallVerdict | undefined,
  ): Promise<CallVerdict | undefined> {
    let combined = joined(before, await pending);
    for (let next = at + 1; next < this.#screening.length && combined?.kind !== 'refuse'; next++) {
      combined = joined(combined, await this.#screening[next]!.beforeCall(call, argumentsOf(combined) ?? args));
    }
    return combined;
  }

  /** A result through the extensions' `afterCall`, each handed `replyRead` (CallRun.replyRead) to await where it needs the reply's end. */
  after(call: RunCall, result: ToolResult, replyRead?: Promise<void>): Promise<ToolResult> | ToolResult {
    return this.#afterCall ? this.#after(call, result, 0, replyRead) : result;
  }

  /** The result through each extension's `afterCall` from `from` on; awaited only where one answers with a promise. */
  #after(call: RunCall, result: ToolResult, from: number, replyRead: Promise<void> | undefined): Promise<ToolResult> | ToolResult {
    let final = result;
    for (let at = from; at < this.#list.length; at++) {
      const extension = this.#list[at]!;
      if (!extension.afterCall) continue;
      const failed = (error: unknown) =>
        this.warn({ type: 'warning', code: 'extension_failed', message: `${extension.name} failed on the result of "${call.name}": ${errorMessage(error)}` });
      let next: ToolResult | Promise<ToolResult>;
      try {
        next = extension.afterCall(call, final, replyRead);
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
        (value) => this.#after(call, value, at + 1, replyRead),
        (error: unknown) => {
          failed(error);
          return this.#after(call, before, at + 1, replyRead);
        },
      );
    }
    return final;
  }

  event(event: RunEvent): RunEvent {
    let adorned = event;
    for (const extension of this.#events) adorned = extension.event(adorned);
    return adorned;
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
 * Two verdicts as one: a refusal wins; arguments the later one saw are its own (it was given the
 * earlier one's); two asks are one ask, with what each says of why; a `run` that says why (should
 * the tool's rule ask) joins an ask the same way, and stays a `run` with another such one.
 */
function joined(before: CallVerdict | undefined, next: CallVerdict | undefined): CallVerdict | undefined {
  if (!next) return before;
  if (next.kind === 'refuse') return next;
  if (!before) return next.kind === 'run' && next.arguments === undefined && !next.because && !next.standing ? undefined : next;
  if (before.kind === 'refuse') return before;
  const kind = before.kind === 'ask' || next.kind === 'ask' ? 'ask' : 'run';
  const args = argumentsOf(next) !== undefined ? argumentsOf(next) : argumentsOf(before);
  const because = before.because || next.because ? { ...before.because, ...next.because } : undefined;
  const standing = before.standing || next.standing ? { tainted: Boolean(before.standing?.tainted || next.standing?.tainted) } : undefined;
  // A plain `run` says nothing: the call then goes on as if no extension had spoken.
  if (kind === 'run' && args === undefined && !because && !standing) return undefined;
  return { kind, ...(args !== undefined ? { arguments: args } : {}), ...(because ? { because } : {}), ...(standing ? { standing } : {}) };
}

/** The arguments a verdict puts in, if any. */
function argumentsOf(verdict: CallVerdict | undefined): unknown {
  return verdict && verdict.kind !== 'refuse' ? verdict.arguments : undefined;
}
