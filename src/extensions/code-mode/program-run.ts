import { toolFailure, toolSuccess } from '../../call/result.js';
import { UntrustedOutput } from '../../call/untrusted-output.js';
import type { ToolResult } from '../../core/types.js';
import { isAmbiError } from '../../errors/ambi-error.js';
import { ToolError } from '../../errors/tool-error.js';
import { TurnScope } from '../../runner/turn-scope.js';
import type { ToolContext } from '../../tools/types.js';
import type { CodeModeOptions } from '../../codemode/code-mode-options.js';
import { ProgramCalls } from './program-calls.js';
import { ProgramTaint } from './program-taint.js';
import { RUN_CODE_TOOL } from '../../codemode/run-code-definition.js';
import { runProgram } from '../../codemode/run-program.js';

/**
 * One `run_code` call: the program run in the sandbox, its calls made through the run's call
 * pipeline (ProgramCalls). Resolves with `{ result, logs }` (marked untrusted when the program
 * read untrusted content); a program that did not return throws its `ProgramError`
 * (`program_timeout`, `program_error`, `aborted`, `sandbox_unavailable`), which is the call's code.
 */
export async function runCode(code: string, ctx: ToolContext, bounds: CodeModeOptions): Promise<unknown> {
  const pipeline = ctx.run && TurnScope.pipelineOf(ctx.run);
  if (!ctx.run || !pipeline) throw new ToolError(`"${RUN_CODE_TOOL}" runs only inside a run (its calls need the run's policies).`);
  const started = performance.now();
  const { journal, conversation } = pipeline.run;
  const call = { id: ctx.callId, name: RUN_CODE_TOOL };
  // The program's own record, beside its calls' (`<key>.<index>`), not under the `run_code` call's
  // key (a call with a `started` record is never run again, and a resume runs a program again):
  // one already there means this is a program run again, whose calls continue from their records.
  const programKey = `${ctx.idempotencyKey}.program`;
  const rerun = journal
    ? await journal
        .begin({
          idempotencyKey: programKey,
          callId: ctx.callId,
          name: RUN_CODE_TOOL,
          arguments: { code },
          ...(conversation !== undefined ? { conversation } : {}),
        })
        .then(
          () => false,
          (error: unknown) => isAmbiError(error, 'journal_conflict'),
        )
    : false;
  const taint = new ProgramTaint();
  const calls = new ProgramCalls({ id: ctx.callId, idempotencyKey: ctx.idempotencyKey }, pipeline, ctx.run, ctx.signal, taint, rerun);
  const record = (result: ToolResult) => journal?.finish(programKey, result).catch(() => {});
  try {
    const output = await runProgram(code, { tools: calls, signal: ctx.signal, ...bounds });
    const success = toolSuccess(call, { result: output.result, logs: output.logs }, 1, performance.now() - started);
    if (taint.tainted) success.untrusted = true;
    await record(success);
    return taint.tainted ? new UntrustedOutput(output) : output;
  } catch (error) {
    const code = isAmbiError(error) ? error.code : 'crashed';
    await record(toolFailure(call, code, error instanceof Error ? error.message : String(error), 1, performance.now() - started));
    throw withLogs(error);
  }
}

/** A program's failure with its logs in its message: what the model reads of a failed program is its message. */
function withLogs(error: unknown): unknown {
  const logs = (error as { logs?: unknown }).logs;
  if (!(error instanceof Error) || !Array.isArray(logs) || logs.length === 0) return error;
  error.message = `${error.message}\nconsole.log before it ended:\n${logs.join('\n')}`;
  return error;
}
