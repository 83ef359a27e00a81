import { errorMessage } from '../errors/error-message.js';
import type { StandingDecision } from '../store/approval-types.js';
import type { ToolCallJournal } from '../store/types.js';
import { toolIdentity } from '../tools/identity.js';
import type { Tool } from '../tools/types.js';
import { untilAborted } from '../util/abort-source.js';
import type { ApprovalDecision } from './approvals.js';
import type { CallRun, CallVerdict, RunCall } from './types.js';

type Ask = Extract<CallVerdict, { kind: 'ask' }>;

/**
 * A person's decision on one call, in the policy stage. Where the run's conversation is stored
 * with a journal, a standing decision for the very tool the person saw decides without asking (an
 * approval given before untrusted content was read does not decide a call proposed after it);
 * otherwise the call's record says it is `asked` (so another page can list it and a resume asks
 * again), `approval_requested` goes out (for a call read from a reply still streaming, once the
 * reply ended), and the decision is recorded (`decided`) before the call may run. A journal that
 * fails never blocks the person: the run asks and decides in memory, with a warning.
 */
export async function askPerson(call: RunCall, tool: Tool, ask: Ask, run: CallRun): Promise<ApprovalDecision> {
  const journal = run.conversation !== undefined ? run.journal : undefined;
  const conversation = run.conversation!;
  const identity = toolIdentity(tool);
  const tainted = ask.standing?.tainted === true;
  if (journal) {
    const standing = journal.standing && (await quietly(run, () => journal.standing!(conversation, call.name)));
    if (standing && standingDecides(standing, identity, tainted)) {
      const decision = { approved: standing.approved, ...(standing.reason ? { reason: standing.reason } : {}) };
      run.emit({ type: 'approval_resolved', callId: call.id, ...decision, standing: true });
      return decision;
    }
    if (journal.ask) {
      const { id: callId, name, arguments: args, idempotencyKey, target } = call;
      const asked = { idempotencyKey, callId, name, arguments: args, conversation, runId: run.runId, requestedAt: Date.now(), tool: identity };
      await quietly(run, () => journal.ask!(target ? { ...asked, target } : asked));
    }
  }
  // A card never shows a call of a reply the model is still writing.
  if (run.replyRead) await untilAborted(run.replyRead, run.signal);
  run.emit({ type: 'approval_requested', call, ...ask.because });
  const decision = await run.approvals.wait(call.id, run.signal);
  if (journal) await record(journal, conversation, call, { identity, tainted }, decision, run);
  run.emit({ type: 'approval_resolved', callId: call.id, approved: decision.approved, ...(decision.reason ? { reason: decision.reason } : {}) });
  return decision;
}

/**
 * Whether a standing decision decides a call of the tool `identity`: only for the same tool; a
 * denial always, an approval only if it was given under the same condition or a stricter one
 * (given on a tainted call, it decides untainted ones too; given on an untainted one, only those).
 */
function standingDecides(standing: StandingDecision, identity: string, tainted: boolean): boolean {
  if (standing.identity !== identity) return false;
  return !standing.approved || !tainted || standing.tainted === true;
}

/** Record a decision on the call's record, and its standing form when `always`. */
async function record(
  journal: ToolCallJournal,
  conversation: string,
  call: RunCall,
  seen: { identity: string; tainted: boolean },
  decision: ApprovalDecision,
  run: CallRun,
): Promise<void> {
  const decidedAt = Date.now();
  const reason = decision.reason ? { reason: decision.reason } : {};
  const edited = decision.arguments !== undefined ? { arguments: decision.arguments } : {};
  if (journal.decide) await quietly(run, () => journal.decide!(call.idempotencyKey, { approved: decision.approved, ...reason, decidedAt, ...edited }));
  if (decision.always && journal.setStanding)
    await quietly(run, () =>
      journal.setStanding!({
        conversation,
        tool: call.name,
        identity: seen.identity,
        tainted: seen.tainted,
        approved: decision.approved,
        ...reason,
        decidedAt,
      }),
    );
}

/** A journal operation whose failure becomes a `warning` event (and `undefined`); it races the run's signal, so Stop never waits on a store. */
async function quietly<T>(run: CallRun, operation: () => Promise<T>): Promise<T | undefined> {
  try {
    return await untilAborted(operation(), run.signal);
  } catch (error) {
    if (run.signal.aborted) throw error;
    run.emit({ type: 'warning', code: 'approval_not_stored', message: `An approval could not be stored with its conversation: ${errorMessage(error)}` });
    return undefined;
  }
}
