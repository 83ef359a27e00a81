/**
 * One tool call, from the model's request to its result. The stages, in order, one file each:
 *
 *  1. decode    decode.ts     the arguments as JSON: absent is `{}`, text is parsed, deeper than 64 levels refused
 *  2. screen    screen.ts     the run's extensions' `beforeCall`: what the arguments refer to put in (`{ "$held": "$N" }`),
 *                             a refusal, or a say that a person must see the call
 *  3. validate  validate.ts   checked against the tool's schema (ajv, no-eval, or its Standard Schema)
 *  4. policy    policy.ts     where the call acts (`target`: a tab's page) named first; then a person asked
 *                             (approval.ts) where an extension, the call's record or the tool's rule says so
 *  5. slots     slots.ts      a slot of the run's concurrency limit, then of the shared budget
 *  6. journal   journal.ts    a `started` record before a journalled call runs
 *  7. attempt   attempt.ts    the tool's `call` under its timeout; retried after a timeout if idempotent
 *  8. result    result.ts     the ToolResult: journalled, slots freed, the extensions' `afterCall`, `tool_finished`
 *
 * A call outside a run (`ToolManager.execute` with no `run`) skips stages 2 and 4 to 6, but for the
 * tool's rule where an `approve` was given (a tool offered over WebMCP). A call another realm's
 * pipeline took this far is served where its tool lives through serve.ts (stage 3 with that realm's
 * own check, then stage 7 once). A call that
 * ends early (an unknown tool, invalid arguments, a denial) leaves for stage 8 from where it
 * ends, and every result leaves stage 8 once. A remote tool (on the page, in a tool worker, on
 * an MCP server, in a tab) is a Tool whose `call` goes there: the route is the tool's own.
 */
import type { ToolCall, ToolResult } from '../core/types.js';
import { isAmbiError } from '../errors/ambi-error.js';
import { errorMessage } from '../errors/error-message.js';
import type { RegisteredTool } from '../tools/registry.js';
import { newIdempotencyKey } from '../util/ids.js';
import { isThenable } from '../util/thenable.js';
import type { OnToolError, RunScope } from '../tools/types.js';
import { runAttempts, type AttemptsOptions } from './attempt.js';
import { beginJournal, finishJournal, journalled } from './journal.js';
import { admit, approvedOutside } from './policy.js';
import { toolFailure } from './result.js';
import { takeSlots } from './slots.js';
import type { CallRun, ExecuteOptions, RunCall } from './types.js';
import { decodeArguments } from './decode.js';
import { screen } from './screen.js';
import { validateArguments } from './validate.js';

/** The tools a call may name, with their validators (a ToolRegistry is one; so is the set of tools offered over WebMCP). */
export interface CallableTools {
  entry(name: string): RegisteredTool | undefined;
  names(): string[];
}

/** Run `call` through the pipeline above; resolves with its ToolResult and never rejects, whatever the call. */
export async function executeCall(registry: CallableTools, call: ToolCall, options: ExecuteOptions = {}): Promise<ToolResult> {
  const started = performance.now();
  const elapsed = () => performance.now() - started;
  const { run } = options;
  const keyed: RunCall = { ...call, idempotencyKey: options.idempotencyKey ?? call.idempotencyKey ?? newIdempotencyKey() };
  const entry = registry.entry(call.name);
  if (!entry) {
    const known = registry.names();
    const available = known.length ? known.join(', ') : 'none';
    return finish(toolFailure(call, 'unknown_tool', `Unknown tool "${call.name}". Available tools: ${available}`, 0, elapsed()), keyed, run);
  }
  // 1: decode.
  const decoded = decodeArguments(call.name, call.arguments);
  if (!decoded.ok) return finish(toolFailure(call, 'invalid_arguments', decoded.message, 0, elapsed()), keyed, run);
  let { value, owned } = decoded;
  // 2: screen (a run's only; nothing is awaited where no extension has a say).
  const screening = run ? screen(keyed, value, run) : undefined;
  const said = isThenable(screening) ? await screening : screening;
  if (said?.kind === 'refuse') return finish(toolFailure(call, said.code, said.message, 0, elapsed()), keyed, run);
  // A new value, made for this call: validation may write its defaults into it.
  if (said?.arguments !== undefined && said.arguments !== value) ({ value, owned } = { value: said.arguments, owned: true });
  // 3: validate (synchronous for a JSON Schema: no promise is awaited for it).
  const checking = validateArguments(call.name, value, owned, entry.validate);
  const checked = isThenable(checking) ? await checking : checking;
  if (!checked.ok) return finish(toolFailure(call, checked.code ?? 'invalid_arguments', checked.message, 0, elapsed()), keyed, run);
  if (!run) {
    const signal = options.signal ?? neverAborted;
    const refused = options.approve && (await approvedOutside(keyed, entry.tool, checked.value, options.approve, signal, elapsed));
    return refused || runAttempts(entry.tool, keyed, checked.value, new AttemptReports(keyed, options), started);
  }

  let release = () => {};
  try {
    // 4: policy.
    const admitting = admit(keyed, entry, checked.value, run, said, options.recorded, elapsed);
    const admitted = isThenable(admitting) ? await admitting : admitting;
    if (!('args' in admitted)) return finish(admitted, keyed, run);
    // 5: slots.
    release = await takeSlots(entry.tool, run);
    // 6: journal.
    const journal = run.journal && journalled(entry.tool, admitted.approvedByPerson) ? run.journal : undefined;
    const unrecorded = journal && (await beginJournal(journal, admitted.call, run, elapsed));
    if (unrecorded) return finish(unrecorded, keyed, run, release);
    // 7: attempt.
    const attempted = await runAttempts(entry.tool, admitted.call, admitted.args, new AttemptReports(admitted.call, options), started);
    const result = admitted.edited ? { ...attempted, editedArguments: admitted.call.arguments } : attempted;
    // 8: result.
    if (journal) await finishJournal(journal, admitted.call.idempotencyKey, result);
    return finish(result, keyed, run, release);
  } catch (error) {
    return finish(notStarted(call, run, error, elapsed()), keyed, run, release);
  }
}

/** Stage 8: free the call's slots, let the extensions see the result (`afterCall`), report it. */
function finish(result: ToolResult, call: RunCall, run: CallRun | undefined, release?: () => void): ToolResult | Promise<ToolResult> {
  release?.();
  if (!run) return result;
  const after = run.hooks.after(call, result, run.replyRead);
  if (isThenable(after)) return after.then((final) => reported(final, run));
  return reported(after, run);
}

function reported(result: ToolResult, run: CallRun): ToolResult {
  run.emit({ type: 'tool_finished', result });
  return result;
}

/** The signal of a call outside a run that was given none. */
const neverAborted = new AbortController().signal;

/** How the attempts of a call report: to the caller's callbacks, and as run events (methods, not closures made per call). */
class AttemptReports implements AttemptsOptions {
  readonly idempotencyKey: string;
  readonly signal?: AbortSignal;
  readonly scope?: RunScope;
  readonly onToolError?: OnToolError;

  constructor(
    readonly call: RunCall,
    readonly options: ExecuteOptions,
  ) {
    this.idempotencyKey = call.idempotencyKey;
    const signal = options.signal ?? options.run?.signal;
    if (signal) this.signal = signal;
    if (options.scope) this.scope = options.scope;
    const onToolError = options.onToolError ?? options.run?.onToolError;
    if (onToolError) this.onToolError = onToolError;
  }

  onAttempt(attempt: number): void {
    this.options.onAttempt?.(attempt);
    this.options.run?.emit({ type: 'tool_started', callId: this.call.id, name: this.call.name, attempt });
  }

  onRetry(info: { attempt: number; nextAttempt: number; delayMs: number }): void {
    this.options.onRetry?.(info);
    this.options.run?.emit({ type: 'tool_retry', callId: this.call.id, name: this.call.name, ...info });
  }
}

/** The result of a call that never started: aborted while it waited, or stopped by a failure of the runner's own. */
function notStarted(call: ToolCall, run: CallRun, error: unknown, durationMs: number): ToolResult {
  if (run.signal.aborted) return toolFailure(call, 'aborted', `Tool "${call.name}" was aborted before it started`, 0, durationMs);
  return toolFailure(call, isAmbiError(error) ? error.code : 'crashed', `Tool "${call.name}" was not run: ${errorMessage(error)}`, 0, durationMs);
}
