import type { ContextBudget } from '../../core/types.js';
import type { RunExtension } from '../../runner/extension.js';
import type { RunSetup } from '../../runner/run-setup.js';
import type { TokenCounter } from './budget.js';
import { fitContext } from './fit.js';
import { readHistory } from './history.js';

/** What a context budget needs of its agent: its budget (else the engine's) and its token counter, which keeps counts across runs. */
export interface ContextSource {
  budget: ContextBudget | undefined;
  counter: TokenCounter;
}

/**
 * Small context windows. Before each model turn, if the request would exceed the budget (the
 * agent's, or the engine's own: a local model's context size), the oldest messages are left out
 * of it (the stored conversation keeps them; see fit.ts and trim.ts: `beforeTurn`); a long stored
 * conversation is read only as far back as a request can hold (history.ts: `open`).
 */
export function contextExtension(setup: RunSetup, source: ContextSource): RunExtension {
  const { agent, signal } = setup;
  const conversation = setup.options.conversation;
  /** Stored messages the run did not read: counted as dropped when a request is trimmed. */
  let skipped = 0;
  const budgetOf = async () => {
    if (source.budget) return source.budget;
    try {
      return await agent.engine.contextBudget?.(signal);
    } catch {
      return undefined; // the engine cannot tell now: its turn then fails as it would
    }
  };
  return {
    name: 'context',
    open(start) {
      if (conversation === undefined || setup.history || !agent.conversations.loadTail) return;
      start.readWith(() =>
        readHistory(agent.conversations, conversation, budgetOf, source.counter, signal).then((history) => {
          skipped = history.skipped;
          return history;
        }),
      );
    },
    async beforeTurn(request) {
      request.engine.messages = await fitContext({
        budget: source.budget,
        engine: agent.engine,
        counter: source.counter,
        messages: request.engine.messages,
        userAt: request.userAt,
        unread: skipped,
        addition: request.instructions.join('\n\n'),
        tools: request.engine.tools,
        emit: setup.emit,
        signal,
      });
    },
  };
}
