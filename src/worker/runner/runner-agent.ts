import { Agent } from '../../agent/agent.js';
import { ChatRunner } from '../../runner/chat-runner.js';
import { defined } from '../../util/defined.js';
import type { PromptApiAccess } from '../../engines/prompt-api/access.js';
import type { RunnerConfig } from '../wire/protocol.js';
import type { EngineFactories } from '../../engines/engine-table.js';
import type { ExtensionLoader, ImageDescriber } from '../../runner/run-setup.js';

/** What a runner worker of an app's own serves beyond the built-ins (see `serveRunner`). */
export interface ServeRunnerOptions {
  /** Engine kinds by `kind`, each a factory that builds the Engine here, in the worker, from the page's plain-data config. The built-in kinds stay. */
  engines?: EngineFactories;
  /** Extensions loaded for every run of this worker (as `AgentOptions.extensions`), after the standard ones. */
  extensions?: readonly ExtensionLoader[];
  /** Turns images into words for an engine that takes none (see `AgentOptions.describeImage`): a function, so it lives here, in the worker. */
  describeImage?: ImageDescriber;
}

/** An Agent and its ChatRunner, as a runner worker builds them from a page's configuration. */
export interface RunnerAgent {
  agent: Agent;
  runner: ChatRunner;
}

/**
 * Build the Agent a page's configuration describes, with the worker's engine kinds and
 * extensions: its stores on the configured IndexedDB database, its leaves, and the browser's
 * built-in model reached through `promptApi` (a page's) where this worker has no `LanguageModel`.
 */
export async function makeRunnerAgent(config: RunnerConfig, served: ServeRunnerOptions, promptApi: () => PromptApiAccess): Promise<RunnerAgent> {
  const stores = config.database ? await openStores(config.database) : undefined;
  const { preamble, maxResultChars, validation, context, record, untrusted, maxPartBytes, maxConversationBytes, codeMode } = config;
  const { engines, extensions, describeImage } = served;
  const agent = await Agent.make(config.engine, {
    ...defined({ preamble, maxResultChars, validation, context, record, untrusted, engines, extensions }),
    ...defined({ maxPartBytes, maxConversationBytes, describeImage, codeMode }),
    ...(stores ? { conversations: stores.conversations, journal: stores.journal } : {}),
    // The browser's built-in model: the page's, where this worker has no `LanguageModel` (Chrome offers it to documents only).
    ...('LanguageModel' in globalThis ? {} : { engine: { promptApi: promptApi() } }),
    // A page tool's or tool worker's throw is told on the page (WorkerRunner's onToolError), not here again.
    onToolError: () => {},
  });
  // The memory snapshot store loads only for a runner with leaves and no database.
  if (config.leaf) agent.leaf({ ...config.leaf, store: stores?.snapshots ?? (await memorySnapshots()) });
  return { agent, runner: new ChatRunner(config.concurrency) };
}

/** The three stores on one IndexedDB database (one shared connection), loaded only for a runner that has one. */
async function openStores(database: string) {
  const [{ IndexedDbConversationStore }, { IndexedDbToolCallJournal }, { IndexedDbSnapshotStore }] = await Promise.all([
    import('../../store/indexeddb-conversation-store.js'),
    import('../../store/indexeddb-tool-call-journal.js'),
    import('../../store/indexeddb-snapshot-store.js'),
  ]);
  const [conversations, journal, snapshots] = await Promise.all([
    IndexedDbConversationStore.open(database),
    IndexedDbToolCallJournal.open(database),
    IndexedDbSnapshotStore.open(database),
  ]);
  return { conversations, journal, snapshots };
}

async function memorySnapshots() {
  return new (await import('../../store/memory-snapshot-store.js')).MemorySnapshotStore();
}
