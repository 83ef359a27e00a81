import type { CallHooks, CallRun, Recorded, RunCall } from '../../call/types.js';
import type { JsonValue, ToolResult } from '../../core/types.js';
import { TurnScope, type ScopePipeline } from '../../runner/turn-scope.js';
import type { RunScope } from '../../tools/types.js';
import { Limiter } from '../../util/limiter.js';
import type { ProgramTaint } from './program-taint.js';
import { RUN_CODE_TOOL } from '../../codemode/run-code-definition.js';
import { opaqueValue, type ProgramCallContext, type ProgramTools } from '../../codemode/types.js';
import { readCallRecords } from '../resume/records.js';
import { continuedCall } from '../resume/resumed-call.js';

/** The `run_code` call a program belongs to. */
export interface ProgramParent {
  id: string;
  idempotencyKey: string;
}

/**
 * The program's `tools`: each call a call of the run, through the run's one door into the call
 * pipeline (`ToolManager.execute` with the run's side: screen, validation, policy and approval,
 * slots, the journal, attempts, the extensions' `beforeCall` and `afterCall`), its events tagged
 * with the `run_code` call's id (`parentCallId`). Its id and idempotency key derive from the
 * `run_code` call's and its index, so a program run again (a resume) makes the same calls, and
 * each continues from its record as any interrupted call does (resumed-call.ts): a recorded
 * result is used, a call cut off after it started is `outcome_unknown`, one a person was asked
 * about is asked again (or runs as decided). The program's calls share a limit of their own, as
 * many at once as the run allows (its `run_code` call holds one of the run's own), and the shared budget.
 */
export class ProgramCalls implements ProgramTools {
  readonly names: readonly string[];
  readonly #run: CallRun;

  constructor(
    readonly parent: ProgramParent,
    readonly pipeline: ScopePipeline,
    readonly scope: RunScope,
    signal: AbortSignal,
    readonly taint: ProgramTaint,
    /** A program run again: each call continues from its record. */
    readonly rerun: boolean,
  ) {
    const { run, tools } = pipeline;
    this.names = tools.registry.names().filter((name) => name !== RUN_CODE_TOOL);
    const registry = tools.registry;
    const hooks: CallHooks = {
      before: (call, args) => taint.before(call, registry.get(call.name), run.hooks.before(call, args)),
      after: (call, result, replyRead) => run.hooks.after(call, result, replyRead),
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
    const call: RunCall = { id, name, arguments: args, idempotencyKey: `${this.parent.idempotencyKey}.${context.index}` };
    // Aborted when the program ends, however (the run's abort ends it too): the call ends with it.
    const run = { ...this.#run, signal: context.signal };
    run.emit({ type: 'tool_call', call });
    const continued = this.rerun ? await this.#continued(call, run) : {};
    if ('result' in continued) return this.#valueOf(await this.#reported(call, continued.result, run));
    const recorded = continued.recorded ? { recorded: continued.recorded } : {};
    return this.#valueOf(await this.pipeline.tools.execute(call, { run, scope: this.scope, ...recorded }));
  }

  /** What the journal says of a call a program run again makes: its recorded result, or what the pipeline runs it with. */
  async #continued(call: RunCall, run: CallRun): Promise<{ result: ToolResult } | { recorded?: Recorded }> {
    const [record] = await readCallRecords(run.journal, [call]);
    return continuedCall(call, this.pipeline.tools.registry.get(call.name), record);
  }

  /** A recorded result, through the result stage's hooks as any result (a mark, a value held), and reported. */
  async #reported(call: RunCall, recorded: ToolResult, run: CallRun): Promise<ToolResult> {
    const result = await run.hooks.after(call, { ...recorded, id: call.id, name: call.name });
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
