import type { EngineDeps } from '../engines/build-engine.js';
import type { EngineConfig } from '../engines/config.js';
import { engineFromTable, engineTable, isEngine, type EngineFactories } from '../engines/engine-table.js';
import type { Engine } from '../engines/types.js';
import { TagToolCallParser } from '../parser/tag-parser.js';
import type { ToolCallParser } from '../parser/types.js';
import { ToolRegistry } from '../tools/registry.js';
import { ToolManager } from '../call/tool-manager.js';
import type { OnToolError, Tool } from '../tools/types.js';
import { developmentToolErrorLog } from '../tools/tool-error-log.js';
import type { ValidationMode } from '../validation/types.js';
import type { LeafOptions } from '../leaf/leaf-options.js';
import { spawnLeafTool, type StartLeaf } from '../leaf/spawn-leaf.js';
import type { ToolCallJournal } from '../store/types.js';
import { MemoryConversationStore } from '../store/memory-conversation-store.js';
import type { ConversationStore } from '../store/conversation-store.js';
import { checkContextBudget, TokenCounter } from '../extensions/context/budget.js';
import type { McpServerConfig } from '../mcp/config.js';
import type { McpConnection, McpConnectOptions } from '../mcp/connection.js';
import type { RunEvent } from '../core/run.js';
import type { ContextBudget } from '../core/types.js';
import type { ExtensionLoader } from '../runner/run-setup.js';
import type { RunAgent, UntrustedMode } from '../runner/run-setup.js';
import { type AgentParts, extensionsWith, loadAgentParts, loadLeafRunner, loadMcp, loadPendingApprovals, loadRecorder } from './features.js';
import { journalOf } from '../runner/run-setup.js';
import type { PendingApproval } from '../store/approval-types.js';
import { builtEngineInfo, type EngineInfo } from '../engines/engine-info.js';
import type { Cassette } from '../engines/cassette/cassette.js';
import type { RecordingEngine } from '../engines/cassette/recorder.js';
import { InvalidOptionError } from '../errors/invalid-option-error.js';
import type { ImageDescriber } from '../runner/run-setup.js';
import { checkContentOptions } from '../parts/content-options.js';
import { DEFAULT_MAX_CONVERSATION_BYTES, DEFAULT_MAX_PART_BYTES } from '../parts/limits.js';
import type { CodeModeOption } from '../codemode/code-mode-options.js';
import { isRunCode } from '../extensions/code-mode/run-code.js';

/** How an agent is made. */
export interface AgentOptions {
  /** The system prompt every conversation starts from. */
  preamble?: string;
  /** How tool calls are read from model text (default: `[TOOL_CALL]` tags). */
  parser?: ToolCallParser;
  /** Where named conversations live (default: in memory). */
  conversations?: ConversationStore;
  /** A tool result longer than this many characters is cut, with a marker, before the model reads it. Default 20 000. */
  maxResultChars?: number;
  /**
   * Where this agent's calls are recorded (asked, decided, started, done), so a call cut off by a
   * reload is never run twice (see ToolCallJournal). Default: a run on a stored conversation
   * records its calls in the conversation store's own journal (`conversations.journal`).
   */
  journal?: ToolCallJournal;
  /** Realm services for the engine (tests swap `fetch`). */
  engine?: EngineDeps;
  /**
   * Engine kinds of your own, by `kind`, for a plain-data config (the built-in kinds stay; naming
   * one replaces it). A config whose kind no factory builds fails `unknown_engine`.
   */
  engines?: EngineFactories;
  /** How tool arguments are validated: `auto` (default) or `no-eval` (see ToolRegistryOptions). */
  validation?: ValidationMode;
  /**
   * A context budget: before each model turn, the oldest messages are left out of the request so
   * it fits (the system prompt and the run's user message always stay). Default: the engine's own
   * (a local model's context size), else none.
   */
  context?: ContextBudget;
  /**
   * Told what a tool threw when it failed of itself (anything but a `ToolError`): the model reads
   * only `crashed` and its message; this gets the thrown value, stack and all, to log or report.
   * Default: in development (`process.env.NODE_ENV` neither `production` nor `test`), the first
   * throw of each tool is logged to the console; otherwise nothing.
   */
  onToolError?: OnToolError;
  /** Extensions of your own, called after the standard ones at each hook of every run (see RunExtension; a standard one listed here counts once). */
  extensions?: readonly ExtensionLoader[];
  /**
   * How an untrusted tool's result (`untrusted: true`, an MCP server's, a tab's, …) reaches the
   * model. `'mark'` (default): as it is, marked; calls proposed after it are tainted. `'hold'`: it
   * is held, and the model reads a handle (`{ held: '$1', from, type, length }`), passes the value
   * by reference (`{ "$held": "$1" }`) and reads it only through `inspect_held`; a call is tainted
   * only by the held values it carries (`heldArguments` decides per argument).
   */
  untrusted?: UntrustedMode;
  /**
   * Record every model request of this agent's runs (its leaves' and extra requests included) and
   * its response: `agent.cassette()` returns them as JSON, for `replayEngine(cassette)`. Default false.
   */
  record?: boolean;
  /**
   * The most bytes one part of a message (an image, a file: the person's or a tool's) may hold;
   * a bigger one fails `content_too_large`. Default 20 MiB (OpenAI's limit for one image).
   */
  maxPartBytes?: number;
  /**
   * The most bytes the parts of one conversation may hold together, as a run reads it; a part
   * that would pass it fails `content_too_large`. Default 100 MiB.
   */
  maxConversationBytes?: number;
  /**
   * For an engine that takes no images (a text-only local model): turn each image into words,
   * which the model reads in its place (`[image: …]`). Without it, a person's image fails
   * `unsupported_content` before any request, and a tool's is left out with a note.
   */
  describeImage?: ImageDescriber;
  /**
   * Code Mode: the model is offered one tool, `run_code({ code })`, and the agent's tools as
   * TypeScript declarations; its program runs in a QuickJS sandbox, each call it makes a call of
   * the run, under its tool's policy. `true`, or the program's bounds (see docs/code-mode.md).
   */
  codeMode?: CodeModeOption;
}

export const DEFAULT_MAX_RESULT_CHARS = 20_000;

/** The agent's `untrusted` option, checked: `'mark'` where absent. */
function checkUntrustedMode(mode: unknown): UntrustedMode {
  if (mode === undefined || mode === 'mark' || mode === 'hold') return mode ?? 'mark';
  throw new InvalidOptionError('untrusted', `must be "mark" or "hold", got ${typeof mode === 'string' ? JSON.stringify(mode) : typeof mode}`);
}
const MAX_UNSEEN_NOTICES = 16;

/** A model, its tools and its memory: what a ChatRunner runs. */
export class Agent implements RunAgent {
  /** The tools this agent may call, by name (`agent.tool(t)` registers into it). */
  readonly registry: ToolRegistry;
  /**
   * What runs this agent's calls: the ToolManager over `registry`, which applies each tool's
   * policy. Named for what it is used for (`agent.tools.execute(call)`), not a list of tools.
   */
  readonly tools: ToolManager;
  readonly preamble: string | undefined;
  readonly parser: ToolCallParser;
  readonly conversations: ConversationStore;
  readonly maxResultChars: number;
  readonly journal: ToolCallJournal | undefined;
  /** What may extend a run of this agent (resume, typed answers, context budgets, notices), each loaded for the runs that need it. */
  readonly extensions: readonly ExtensionLoader[];
  readonly onToolError: OnToolError | undefined;
  /** How untrusted tools' results reach the model (see `AgentOptions.untrusted`). */
  readonly untrusted: UntrustedMode;
  /** The agent's context budget, if it set one (see `AgentOptions.context`). */
  readonly context: ContextBudget | undefined;
  /** See `AgentOptions.maxPartBytes`. */
  readonly maxPartBytes: number;
  /** See `AgentOptions.maxConversationBytes`. */
  readonly maxConversationBytes: number;
  /** See `AgentOptions.describeImage`. */
  readonly describeImage: ImageDescriber | undefined;
  /**
   * Token counts kept across this agent's runs (the engine's tokenizer where it has one), for its context budget.
   * @internal
   */
  readonly tokens: TokenCounter;

  /** Who answers this agent's requests (provider, model, server), as traces name it. */
  readonly engineInfo: EngineInfo;
  readonly #recorder: RecordingEngine | undefined;

  private constructor(
    readonly engine: Engine,
    options: AgentOptions,
    made: { info?: EngineInfo; recorder?: RecordingEngine; parts?: AgentParts } = {},
  ) {
    const parts = made.parts ?? {};
    this.registry = new ToolRegistry({ ...(options.validation ? { validation: options.validation } : {}) });
    this.untrusted = checkUntrustedMode(options.untrusted);
    // Offered to the model only where there is something to inspect (the untrusted extension decides per request).
    if (this.untrusted === 'hold') this.registry.register(parts.hold!.inspectHeldTool());
    this.tools = new ToolManager(this.registry);
    this.preamble = options.preamble;
    this.parser = options.parser ?? new TagToolCallParser();
    this.conversations = options.conversations ?? new MemoryConversationStore();
    this.maxResultChars = options.maxResultChars ?? DEFAULT_MAX_RESULT_CHARS;
    this.journal = options.journal;
    checkContextBudget(options.context);
    this.context = options.context;
    checkContentOptions(options);
    this.maxPartBytes = options.maxPartBytes ?? DEFAULT_MAX_PART_BYTES;
    this.maxConversationBytes = options.maxConversationBytes ?? DEFAULT_MAX_CONVERSATION_BYTES;
    this.describeImage = options.describeImage;
    this.tokens = new TokenCounter(engine.countTokens?.bind(engine));
    const codeMode = parts.codeMode?.codeModeParts(options.codeMode, (this.journal ?? this.conversations.journal) !== undefined);
    if (codeMode) this.registry.register(codeMode.tool);
    this.extensions = extensionsWith(codeMode ? [...(options.extensions ?? []), codeMode.extension] : options.extensions);
    this.onToolError = options.onToolError ?? developmentToolErrorLog();
    this.#options = options;
    this.engineInfo = made.info ?? engine.info ?? { provider: '_OTHER' };
    this.#recorder = made.recorder;
    this.#parts = parts;
  }

  readonly #options: AgentOptions;
  /** What this agent's options loaded (Code Mode's, hold mode's parts), which a sibling shares. */
  readonly #parts: AgentParts;
  /** Who hears `notify` now (the runs in progress), and what came while nobody did. */
  readonly #observers = new Set<(event: RunEvent) => void>();
  #unseen: RunEvent[] = [];

  /** A sibling agent on the same engine, parser and journal, with the given tools and no stored conversations. */
  derive(tools: readonly Tool[]): Agent {
    const { conversations: _, ...rest } = this.#options;
    // The same engine: a recording one records the leaf's requests too.
    const agent = new Agent(
      this.engine,
      { ...rest, parser: this.parser, ...(this.onToolError ? { onToolError: this.onToolError } : {}) },
      { info: this.engineInfo, parts: this.#parts },
    );
    // A sibling in hold mode has its own `inspect_held`; in Code Mode its own `run_code`.
    for (const tool of tools) if (!this.#parts.hold?.isInspectHeld(tool) && !isRunCode(tool)) agent.tool(tool);
    return agent;
  }

  /**
   * Make an agent for a plain-data engine config (the engine is built here, in this realm), or for an Engine of your own.
   *
   * @example
   * ```ts
   * import { Agent, ChatRunner, openAICompatible } from 'ambi-web';
   *
   * const agent = await Agent.make(openAICompatible({ baseURL: 'http://localhost:11434/v1', model: 'qwen2.5:7b' }), { preamble: 'Be brief.' });
   * const { text } = await new ChatRunner().run(agent, 'Hello!').result;
   * console.log(text);
   * ```
   */
  static async make(engine: EngineConfig | Engine, options: AgentOptions = {}): Promise<Agent> {
    // A config is built by its kind's factory (the built-in ones load their code on first use).
    const given = isEngine(engine);
    const live = given ? engine : await engineFromTable(engine, engineTable(options.engines), options.engine);
    const info = given ? (engine.info ?? { provider: '_OTHER' }) : builtEngineInfo(engine, live);
    // Code Mode's and hold mode's code load only for an agent whose options ask for them.
    const parts = await loadAgentParts(options);
    if (!options.record) return new Agent(live, options, { info, parts });
    // The recorder loads only for an agent that records.
    const { provider, model } = info;
    const recorder = (await loadRecorder()).recordEngine(live, model !== undefined ? { provider, model } : { provider });
    return new Agent(recorder.engine, options, { info, recorder, parts });
  }

  /**
   * Every model request this agent's runs made so far (their leaves' included) and its response,
   * as a JSON cassette for `replayEngine`. Only for an agent made with `record: true` (else it
   * throws `invalid_option`).
   */
  cassette(): Cassette {
    if (!this.#recorder) throw new InvalidOptionError('record', 'cassette() needs an agent made with Agent.make(engine, { record: true })');
    return this.#recorder.cassette();
  }

  /** The calls of a conversation's interrupted run that wait for a person (what a resume asks again), oldest request first. */
  async pendingApprovals(conversation: string): Promise<PendingApproval[]> {
    return (await loadPendingApprovals()).pendingApprovals(this.conversations, journalOf(this, conversation), conversation);
  }

  /** Let the model delegate sub-tasks to leaves through a `spawn_leaf` tool (see LeafOptions). */
  leaf(options: LeafOptions): this {
    // The leaf's code loads here, where the app asks for leaves (not mid-run, at the first delegation):
    // an agent without leaves never fetches it. A module that fails to load fails the first spawn_leaf call.
    const runner = loadLeafRunner();
    runner.catch(() => {});
    const start: StartLeaf = async (task, tools, ctx, maxDepth) => (await runner).runLeaf(this, options, 0, maxDepth, task, tools, ctx);
    return this.tool(spawnLeafTool(options, start));
  }

  /** Add a tool; throws DuplicateToolError on a taken name, InvalidToolError on a bad definition. */
  tool(tool: Tool): this {
    this.registry.register(tool);
    return this;
  }

  /**
   * Connect to an MCP server and register its tools (all or none); resolves with the
   * connection. The MCP client (an optional peer dependency) loads on first use. Connecting is
   * bounded by the config's `timeoutMs` (default 15 s) and `options.signal`.
   */
  async mcp(config: McpServerConfig, options?: McpConnectOptions): Promise<McpConnection> {
    const { connectMcp } = await loadMcp();
    return connectMcp(this, config, options);
  }

  /** Tell this agent's runs of something that happened outside them (a `warning`); kept for the next run while none is running. */
  notify(event: RunEvent): void {
    if (this.#observers.size === 0) {
      this.#unseen.push(event);
      // Only the latest few: an agent nobody runs must not hoard notices.
      if (this.#unseen.length > MAX_UNSEEN_NOTICES) this.#unseen.shift();
      return;
    }
    for (const observer of this.#observers) observer(event);
  }

  /** Receive what `notify` reports (first what no run has seen yet) until the returned function is called. */
  observe(observer: (event: RunEvent) => void): () => void {
    for (const event of this.#unseen.splice(0)) observer(event);
    this.#observers.add(observer);
    return () => void this.#observers.delete(observer);
  }
}
