import { toolFailure } from '../../call/result.js';
import type { CallHooks, CallRun, RunCall } from '../../call/types.js';
import type { JsonValue, ToolResult } from '../../core/types.js';
import { TurnScope, type ScopePipeline } from '../../runner/turn-scope.js';
import type { RunScope } from '../../tools/types.js';
import { Limiter } from '../../util/limiter.js';
import type { ProgramTaint } from './program-taint.js';
import { RUN_CODE_TOOL } from '../../codemode/run-code-definition.js';
import { opaqueValue, type ProgramCallContext, type ProgramTools } from '../../codemode/types.js';

/** The `run_code` call a program belongs to. */
export interface ProgramParent {
  id: string;
  idempotencyKey: string;
}

/**
 * The program's `tools`: each call a call of the run, through the run's call pipeline
 * (`ToolManager.execute` with the run's side: validation, policy and approval, the journal,
 * attempts, the extensions' hooks), its events tagged with the `run_code` call's id
 * (`parentCallId`). Its id and idempotency key derive from the `run_code` call's and its index,
 * so a program run again (a resume) makes the same calls: those the journal recorded are
 * answered from it. The program's calls share a limit of their own, as many at once as the run
 * allows (its `run_code` call holds one of the run's own), and the shared budget.
 */
export class ProgramCalls implements ProgramTools {
  readonly names: readonly string[];
  readonly #run: CallRun;
  /** The ids of the calls made so far: their approval records are done with when the program ends. */
  readonly #ids: string[] = [];

  constructor(
    readonly parent: ProgramParent,
    readonly pipeline: ScopePipeline,
    readonly scope: RunScope,
    signal: AbortSignal,
    readonly taint: ProgramTaint,
    /** A program run again: a call the journal recorded is answered from it. */
    readonly rerun: boolean,
  ) {
    const { run, tools } = pipeline;
    this.names = tools.registry.names().filter((name) => name !== RUN_CODE_TOOL);
    const registry = tools.registry;
    const hooks: CallHooks = {
      ...(run.hooks.resolve ? { resolve: (call, args) => run.hooks.resolve!(call, args) } : {}),
      before: (call) => taint.before(call, registry.get(call.name), run.hooks.before(call)),
      after: (call, result) => run.hooks.after(call, result),
    };
    this.#run = {
      ...run,
      signal,
      emit: (event) => run.emit({ ...event, parentCallId: parent.id }),
      limiters: [new Limiter(scope.concurrency), ...run.limiters.slice(1)],
      hooks,
    };
  }

  async call(name: string, args: JsonValue, context: ProgramCallContext): Promise<unknown> {
    const given = `${this.parent.id}.${context.index}`;
    const id = TurnScope.sharedOf(this.scope)?.callIds.claim(given) ?? given;
    this.#ids.push(id);
    const call: RunCall = { id, name, arguments: args, idempotencyKey: `${this.parent.idempotencyKey}.${context.index}` };
    // Aborted when the program ends, however (the run's abort ends it too): the call ends with it.
    const run = { ...this.#run, signal: context.signal };
    run.emit({ type: 'tool_call', call });
    const result = (this.rerun && (await this.#recorded(call, run))) || (await this.pipeline.tools.execute(call, { run, scope: this.scope }));
    return this.#valueOf(result);
  }

  /** The program ended: the approval records of its calls are done with (as a reply's are once its results are stored; best effort). */
  async forgetApprovals(): Promise<void> {
    const { approvalStore, conversation } = this.#run;
    if (!approvalStore || conversation === undefined || this.#ids.length === 0) return;
    await approvalStore.forget(conversation, this.#ids).catch(() => {});
  }

  /** The journal's answer to a call a program run again had made before: its recorded result (through the extensions' hooks, as any result), or `outcome_unknown` for one cut off after it started. */
  async #recorded(call: RunCall, run: CallRun): Promise<ToolResult | undefined> {
    const entry = await run.journal?.get(call.idempotencyKey).catch(() => undefined);
    if (!entry) return undefined;
    const recorded = entry.result
      ? { ...entry.result, id: call.id, name: call.name }
      : toolFailure(
          call,
          'outcome_unknown',
          `The call to "${call.name}" was cut off (the page closed or reloaded) after it started; it may or may not have taken effect. It was not run again: check before repeating it.`,
          0,
          0,
        );
    const result = await run.hooks.after(call, recorded);
    run.emit({ type: 'tool_finished', result });
    return result;
  }

  /**
   * What the program's `await` gives: the output, or a rejection coded as the result. A held
   * result (`untrusted: 'hold'`) is an opaque value: the program may pass it to tools (its ref,
   * `{ "$held": "$N" }`, is what they receive), never read it. An untrusted result read taints the program.
   */
  #valueOf(result: ToolResult): unknown {
    if (result.held) {
      const { held, from, type } = result.held;
      if (result.ok) return opaqueValue({ $held: held }, `[held ${held}: ${type} from ${from}]`);
      throw codedError(result.error.code, `Tool "${result.name}" failed; what it said is held as ${held}, which this program cannot read.`);
    }
    if (result.untrusted) this.taint.read(result);
    if (!result.ok) throw codedError(result.error.code, result.error.message);
    return result.output;
  }
}

/** What the program's `catch` sees: an Error whose `code` is the result's. */
function codedError(code: string, message: string): Error & { code: string } {
  return Object.assign(new Error(message), { code });
}
