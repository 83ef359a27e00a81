import type { RunEvent } from '../core/run.js';
import type { Message } from '../core/types.js';
import type { ContentPart } from '../core/parts.js';
import type { Engine } from '../engines/types.js';
import type { EngineInfo } from '../engines/engine-info.js';
import type { ToolCallParser } from '../parser/types.js';
import type { ConversationStore } from '../store/conversation-store.js';
import type { ToolCallJournal } from '../store/types.js';
import type { ToolRegistry } from '../tools/registry.js';
import type { ToolManager } from '../call/tool-manager.js';
import type { OnToolError, RunScope } from '../tools/types.js';
import type { RunOptions } from './run-options.js';
import type { RunExtension } from './extension.js';
import type { UsageMeter } from './usage-meter.js';
import type { RunTreeState } from './run-tree.js';
import type { RunView } from './run-view.js';
import type { PendingApproval } from '../store/approval-types.js';

/** What a run needs of its agent (an `Agent` is one): the model, the tools, the memory, the extensions its entry gave it. */
export interface RunAgent {
  readonly engine: Engine;
  readonly registry: ToolRegistry;
  /** The call pipeline over `registry`: every call of a run goes through `tools.execute`. */
  readonly tools: ToolManager;
  readonly parser: ToolCallParser;
  readonly preamble: string | undefined;
  readonly conversations: ConversationStore;
  readonly maxResultChars: number;
  readonly journal: ToolCallJournal | undefined;
  /** What may extend a run of this agent, each loaded for the runs that need it (see ExtensionLoader). */
  readonly extensions: readonly ExtensionLoader[];
  /** Told what a tool threw when it failed of itself (see OnToolError). */
  readonly onToolError?: OnToolError | undefined;
  /** Who answers the agent's requests (provider, model, server), as traces name it. */
  readonly engineInfo?: EngineInfo;
  /** How untrusted tools' results reach the model (default `'mark'`; see `AgentOptions.untrusted`). */
  readonly untrusted?: UntrustedMode;
  /** The calls of a conversation's interrupted run that wait for a person (what a resume asks again); an agent without it has none. */
  pendingApprovals?(conversation: string): Promise<PendingApproval[]>;
  /** The most bytes one part (an image, a file) may hold (see `AgentOptions.maxPartBytes`). */
  readonly maxPartBytes?: number;
  /** The most bytes the parts of one conversation may hold together (see `AgentOptions.maxConversationBytes`). */
  readonly maxConversationBytes?: number;
  /** What turns an image into words for an engine that takes none (see `AgentOptions.describeImage`). */
  readonly describeImage?: ImageDescriber;
}

/** Turns an image into words, for a model that sees none (`AgentOptions.describeImage`): a caption model, an app's own service. */
export type ImageDescriber = (image: { image: Blob | string; mediaType?: string }, context: { signal: AbortSignal }) => string | Promise<string>;

/**
 * How an untrusted tool's result reaches the model. `'mark'`: as it is, marked, and calls proposed
 * after it are tainted. `'hold'`: never; the model reads a handle and passes the value by reference.
 */
export type UntrustedMode = 'mark' | 'hold';

/** One run as its extensions see it when they are made. */
export interface RunSetup {
  readonly runId: string;
  readonly agent: RunAgent;
  /** The person's message, its text parts' where it has parts (empty for a resume, which continues the stored one). */
  readonly input: string;
  /** The person's message as parts (text, images, files), checked, when it was given as parts. */
  readonly content?: readonly ContentPart[];
  readonly options: RunOptions;
  /** Continue the conversation's interrupted run instead of starting one on `input`. */
  readonly resume: boolean;
  /** 0 for a top-level run, 1 for a leaf, and so on. */
  readonly depth: number;
  /** A leaf's starting messages (its parent's snapshot). */
  readonly history?: readonly Message[];
  /** The run's signal: aborted by `abort()`, `suspend()` or the caller's signal. */
  readonly signal: AbortSignal;
  /** Add an event to the run's stream (a `usage` event counts a model request's tokens). */
  emit(event: RunEvent): void;
  /**
   * The tokens the run and its leaves used, and the run's budget: an extension that makes a model
   * request of its own checks `usage.exceeded()` first, and emits a `usage` event for it.
   */
  readonly usage: UsageMeter;
  /** The parent run's scope, for a leaf. */
  readonly parent?: RunScope;
  /** What the extensions keep for the run and its leaves together (see RunTreeState). */
  readonly tree: RunTreeState;
  /** What the run has done so far (its results, its calls in flight and waiting), read-only. */
  readonly view: RunView;
}

/**
 * How an entry provides an extension: whether a run needs it (from the run's options and its
 * agent), and how to make it, loaded on first need (`import()` there, never in the loop).
 */
export interface ExtensionLoader {
  readonly name: string;
  wanted(setup: RunSetup): boolean;
  load(): Promise<(setup: RunSetup) => RunExtension>;
}

/** Where a run of `agent` records its calls: the agent's own journal, else its conversations' journal for a run on a stored conversation. */
export function journalOf(agent: RunAgent, conversation: string | undefined): ToolCallJournal | undefined {
  return agent.journal ?? (conversation !== undefined ? agent.conversations.journal : undefined);
}
