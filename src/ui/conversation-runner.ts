import type { Agent } from '../agent/agent.js';
import type { ChatRunner, Run, RunOptions } from '../runner/chat-runner.js';
import type { PendingApproval } from '../store/approval-types.js';
import type { RunInput } from '../core/parts.js';

/** What a run of a UI adapter may be given: everything but what the adapter sets itself. */
export type ChatRunOptions = Omit<RunOptions, 'signal' | 'conversation' | 'output' | 'maxOutputRetries' | 'runId'>;

/**
 * What the UI adapters drive: runs on named conversations, resumed after a reload. A
 * `WorkerRunner` is one; `agentRunner(chatRunner, agent)` makes one of an in-process pair.
 */
export interface ConversationRunner {
  /** `input`: the person's words, or parts (text, images, files). */
  run(input: RunInput, options: RunOptions<never>): Run;
  resume(conversation: string, options?: ChatRunOptions): Run;
  pendingApprovals(conversation: string): Promise<PendingApproval[]>;
}

/** An Agent on a ChatRunner, in this realm, as a `ConversationRunner`. */
export function agentRunner(chatRunner: ChatRunner, agent: Agent): ConversationRunner {
  return {
    run: (input, options) => chatRunner.run(agent, input, options),
    resume: (conversation, options) => chatRunner.resume(agent, conversation, options),
    pendingApprovals: (conversation) => chatRunner.pendingApprovals(agent, conversation),
  };
}
