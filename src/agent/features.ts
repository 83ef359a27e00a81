// What the in-process entry (Agent.make) loads on demand, and when: every `import()` of the
// library's own code in a run's realm is here (engines load theirs in src/engines). A run loads
// the extensions its options and its agent call for before it starts (ExtensionLoader); the loop
// imports nothing lazily.
import type { ContextBudget } from '../core/types.js';
import type { ExtensionLoader, RunAgent } from '../runner/run-setup.js';
import type { RunSetup } from '../runner/run-setup.js';
import type { NoticeSource } from '../extensions/notices.js';
import type { TokenCounter } from '../extensions/context/budget.js';
import { errorMessage } from '../errors/error-message.js';

/** What the extensions read of the agent they serve (an `Agent` is one). */
export interface FeatureHost extends NoticeSource {
  readonly context: ContextBudget | undefined;
  readonly tokens: TokenCounter;
}

/** The agent of a run as the standard extensions' host, where it is one (an `Agent`); other agents have no budget and no notices. */
function hostOf(agent: RunAgent): Partial<FeatureHost> {
  const host = agent as RunAgent & Partial<FeatureHost>;
  return { context: host.context, tokens: host.tokens, ...(typeof host.observe === 'function' ? { observe: host.observe.bind(host) } : {}) };
}

/**
 * `load`, called once: every caller gets the same promise, so runs that wait for a module continue
 * in the order they asked (two `import()` calls of one module may settle in either order, and runs
 * on one conversation must ask for its lock in the order they started).
 */
function once<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => {
    loading ??= load().catch((error: unknown) => {
      loading = undefined; // a failed load is tried again by the next run
      throw error;
    });
    return loading;
  };
}

/**
 * The extensions every agent's runs may need, each loaded for the runs that need it, in the order
 * their hooks run (a token budget stops a turn before anything is made of it; typed output adds
 * instructions before a context budget counts them; a context budget chooses how the history is
 * read before resume reads it; untrusted content reads the request as trimmed and the reply resume
 * continues). Every agent has them; an agent's own come after them.
 */
export const standardExtensions: readonly ExtensionLoader[] = /* @__PURE__ */ standardLoaders();

// A function, called once above, marked pure: a bundle that never reads the list (a page) drops it and all it loads.
function standardLoaders(): ExtensionLoader[] {
  return [
    {
      name: 'budget',
      // The run's own `maxTokens`, or its parent's for a leaf (they share the meter that holds it).
      wanted: (setup) => setup.usage.maxTokens !== undefined,
      load: once(async () => (await import('../extensions/budget.js')).budgetExtension),
    },
    {
      name: 'typed-output',
      wanted: (setup) => setup.options.output !== undefined,
      load: once(async () => (await import('../extensions/output/typed-output.js')).typedOutputExtension),
    },
    {
      name: 'context',
      wanted: (setup) => hostOf(setup.agent).context !== undefined || setup.agent.engine.contextBudget !== undefined,
      load: once(async () => {
        const [{ contextExtension }, { TokenCounter }] = await Promise.all([
          import('../extensions/context/context.js'),
          import('../extensions/context/budget.js'),
        ]);
        return (setup: RunSetup) => {
          const { context, tokens } = hostOf(setup.agent);
          const engine = setup.agent.engine;
          return contextExtension(setup, { budget: context, counter: tokens ?? new TokenCounter(engine.countTokens?.bind(engine)) });
        };
      }),
    },
    {
      name: 'resume',
      // A stored conversation may hold a run to resume, or calls an interrupted run left to report.
      wanted: (setup) => setup.options.conversation !== undefined && !setup.history,
      load: once(async () => (await import('../extensions/resume/resume.js')).resumeExtension),
    },
    {
      name: 'content',
      // Any run may meet parts: the person's, the conversation's, a tool's (`withParts`, MCP images).
      // After `context`: a part trimmed out of a request is not asked of the engine.
      wanted: () => true,
      load: once(async () => (await import('../extensions/content/content.js')).contentExtension),
    },
    {
      name: 'untrusted',
      // Where untrusted words can be: a tool may bring them (the registry knows without a scan per
      // run), a leaf's snapshot may hold marked messages (a look at each), or a stored conversation
      // may (unread until the run starts: always, as the resume extension is); in hold mode, always
      // (held values, `inspect_held`, `RunResult.held`). After `context`: a turn is exposed by what
      // its request holds once trimmed.
      wanted: (setup) =>
        setup.agent.untrusted === 'hold' ||
        setup.agent.registry.holdsUntrusted() ||
        (setup.history ? setup.history.some((message) => Boolean((message as { untrusted?: unknown }).untrusted)) : setup.options.conversation !== undefined),
      load: once(async () => (await import('../extensions/untrusted/untrusted.js')).untrustedExtension),
    },
    {
      name: 'traces',
      // A leaf's events pass through its parent's run, whose spans nest the leaf under its call.
      wanted: (setup) => setup.options.tracer !== undefined && setup.depth === 0,
      load: async () => {
        try {
          // `@opentelemetry/api` is an optional peer: imported only for a run given a tracer.
          const [{ tracesExtension }, api] = await Promise.all([import('../extensions/traces/traces.js'), import('@opentelemetry/api')]);
          return (setup: RunSetup) => tracesExtension(setup, api);
        } catch (error) {
          // Tracing never fails a run: without its code, the run goes on untraced, and says so.
          const message = `The run is not traced: @opentelemetry/api could not be loaded (${errorMessage(error)})`;
          return (setup: RunSetup) => {
            let said = false;
            const say = () => {
              if (said) return;
              said = true;
              setup.emit({ type: 'warning', code: 'trace_failed', message });
            };
            return { name: 'traces', beforeTurn: say };
          };
        }
      },
    },
    {
      name: 'notices',
      wanted: (setup) => setup.depth === 0 && hostOf(setup.agent).observe !== undefined,
      load: once(async () => {
        const { noticesExtension } = await import('../extensions/notices.js');
        return (setup: RunSetup) => noticesExtension(setup, hostOf(setup.agent) as NoticeSource);
      }),
    },
  ];
}

/** The standard extensions, then `own` (a loader listed twice, a standard one among them, counts once). */
export function extensionsWith(own: readonly ExtensionLoader[] = []): readonly ExtensionLoader[] {
  return [...new Set([...standardExtensions, ...own])];
}

/** What an agent made with an option gets from it: Code Mode's `run_code` and extension, hold mode's `inspect_held`. */
export interface AgentParts {
  codeMode?: typeof import('../extensions/code-mode/code-mode.js');
  hold?: Pick<typeof import('../extensions/untrusted/untrusted.js'), 'inspectHeldTool' | 'isInspectHeld'>;
}

/**
 * The parts `options` ask for, loaded as the agent is made (`Agent.make`): Code Mode's for a
 * `codeMode` other than false (one that is not valid is refused by its check, which loads with
 * them), hold mode's for `untrusted: 'hold'` (with the untrusted extension, which its runs load
 * anyway). An agent without them never fetches their code.
 */
export async function loadAgentParts(options: { codeMode?: unknown; untrusted?: unknown }): Promise<AgentParts> {
  const [codeMode, hold] = await Promise.all([
    options.codeMode !== undefined && options.codeMode !== false ? import('../extensions/code-mode/code-mode.js') : undefined,
    options.untrusted === 'hold' ? import('../extensions/untrusted/untrusted.js') : undefined,
  ]);
  return { ...(codeMode ? { codeMode } : {}), ...(hold ? { hold } : {}) };
}

/** What `agent.pendingApprovals` reads a conversation's waiting calls with, loaded when it is first asked. */
export const loadPendingApprovals = () => import('../extensions/resume/pending.js');
/** The code a leaf runs with, loaded when a leaf first starts. */
export const loadLeafRunner = () => import('../leaf/run-leaf.js');
/** The recording engine wrapper, loaded only for an agent made with `record: true`. */
export const loadRecorder = () => import('../engines/cassette/recorder.js');
/** The MCP client and connection code (the client is an optional peer dependency), loaded with the first server. */
export const loadMcp = () => import('../mcp/connection.js');
