import type { ToolCall } from '../../core/types.js';
import type { RunCall } from '../../call/types.js';
import { errorMessage } from '../../errors/error-message.js';
import { NothingToResumeError } from '../../errors/nothing-to-resume-error.js';
import type { RunExtension } from '../../runner/extension.js';
import { interruptedRun } from '../../runner/interrupted.js';
import type { RunSetup } from '../../runner/run-setup.js';
import { newIdempotencyKey } from '../../util/ids.js';
import { readRecords } from './records.js';
import { danglingCalls, repairedResult } from './repair.js';
import { resumedCallVerdict } from './resumed-call.js';

/**
 * Runs that survive the page. A resume (`runner.resume(conversation)`) picks the interrupted run
 * up where its records say it stopped: each call of the interrupted reply without a result goes
 * through the pipeline again, and this extension decides it in the policy stage from its journal
 * entry and its approval record (resumed-call.ts). A new run on an interrupted conversation tells
 * the model instead what became of those calls (repair.ts). Either way the approval records of
 * those calls are done with once their results are stored.
 */
export function resumeExtension(setup: RunSetup): RunExtension {
  const { agent } = setup;
  const conversation = setup.options.conversation!;
  const store = agent.conversations.approvals;
  const approvals = store ? { store, conversation } : undefined;
  /** The calls of the interrupted reply that this resume runs again, as stored (a call stored without a key has no records), by id. */
  const resumed = new Map<string, ToolCall>();
  const unreadable = (error: unknown) =>
    setup.emit({
      type: 'warning',
      code: 'approval_not_stored',
      message: `An approval stored with the conversation could not be read, so it is asked again: ${errorMessage(error)}`,
    });
  return {
    name: 'resume',
    async open(history) {
      if (setup.resume) {
        const found = interruptedRun(history);
        if (!found) throw new NothingToResumeError(conversation);
        for (const call of found.calls) resumed.set(call.id, call);
        return { resume: { ...found, calls: found.calls.map(keyed) } };
      }
      const dangling = danglingCalls(history);
      if (dangling.length === 0) return undefined;
      const results = await Promise.all(
        dangling.map(async (call) => {
          const tool = agent.registry.get(call.name);
          return { call: keyed(call), result: repairedResult(call, tool, await readRecords(call, tool, agent.journal, approvals)) };
        }),
      );
      // The model is told these calls ended: no decision recorded for them may decide anything again.
      await store
        ?.forget(
          conversation,
          dangling.map((call) => call.id),
        )
        .catch(() => {});
      return { results };
    },
    async beforeCall(call) {
      const stored = resumed.get(call.id);
      if (!stored) return undefined;
      resumed.delete(call.id);
      const tool = agent.registry.get(call.name);
      return resumedCallVerdict(call, tool, await readRecords(stored, tool, agent.journal, approvals, unreadable));
    },
  };
}

/** A stored call as the run calls it: its idempotency key kept (a call stored without one gets a fresh key, and so no earlier record). */
function keyed(call: ToolCall): RunCall {
  return { ...call, idempotencyKey: call.idempotencyKey ?? newIdempotencyKey() };
}
