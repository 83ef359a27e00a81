import type { ToolCall } from '../../core/types.js';
import type { RunCall } from '../../call/types.js';
import { errorMessage } from '../../errors/error-message.js';
import { NothingToResumeError } from '../../errors/nothing-to-resume-error.js';
import type { ContinuedCall, RunExtension } from '../../runner/extension.js';
import { journalOf, type RunSetup } from '../../runner/run-setup.js';
import { newIdempotencyKey } from '../../util/ids.js';
import { interruptedRun, unansweredCalls } from './interrupted.js';
import { readCallRecords } from './records.js';
import { continuedCall, repairedResult } from './resumed-call.js';

/**
 * Runs that survive the page, in `open`, from one read of the interrupted run's records (one
 * record per call in the journal: asked, decided, started, done). A resume
 * (`runner.resume(conversation)`) continues the interrupted reply: each call without a result is
 * answered with its recorded result, or runs again with what its record says (continuedCall). A
 * new run on an interrupted conversation tells the model instead what became of those calls
 * (repairedResult). The loop runs what it is handed, knowing nothing of either.
 */
export function resumeExtension(setup: RunSetup): RunExtension {
  const { agent } = setup;
  const conversation = setup.options.conversation!;
  const journal = journalOf(agent, conversation);
  const unreadable = (error: unknown) =>
    setup.emit({
      type: 'warning',
      code: 'approval_not_stored',
      message: `A call's record stored with the conversation could not be read, so it is taken as unknown: ${errorMessage(error)}`,
    });
  return {
    name: 'resume',
    async open(start) {
      const history = (await start.history()).messages;
      if (setup.resume) {
        const found = interruptedRun(history);
        if (!found) throw new NothingToResumeError(conversation);
        const records = await readCallRecords(journal, found.calls, unreadable);
        const calls = found.calls.map((call, i): ContinuedCall => {
          const said = continuedCall(call, agent.registry.get(call.name), records[i]);
          return { call: keyed(call, 'recorded' in said ? said.recorded : undefined), position: found.positions[i]!, ...said };
        });
        start.continues = { calls, replyCalls: found.replyCalls, userAt: found.userAt, input: found.input };
        return;
      }
      const dangling = unansweredCalls(history);
      if (dangling.length === 0) return;
      const records = await readCallRecords(journal, dangling);
      dangling.forEach((call, i) => start.results.push({ call: keyed(call), result: repairedResult(call, agent.registry.get(call.name), records[i]) }));
    },
  };
}

/**
 * A stored call as the run calls it: its idempotency key kept (a call stored without one gets a
 * fresh key, and so no earlier record), with the place its record says it was proposed for.
 */
function keyed(call: ToolCall, recorded?: { target?: ToolCall['target'] }): RunCall {
  const target = recorded?.target ?? call.target;
  return { ...call, idempotencyKey: call.idempotencyKey ?? newIdempotencyKey(), ...(target ? { target } : {}) };
}
