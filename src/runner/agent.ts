import { createEngine, type EngineDeps } from '../engines/create-engine.js';
import type { EngineConfig } from '../engines/config.js';
import type { Engine } from '../engines/types.js';
import { TagToolCallParser } from '../parser/tag-parser.js';
import type { ToolCallParser } from '../parser/types.js';
import { ToolRegistry } from '../tools/registry.js';
import { ToolManager } from '../tools/tool-manager.js';
import type { Tool } from '../tools/types.js';
import { MemoryConversationStore, type ConversationStore } from './conversation-store.js';

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
  /** Realm services for the engine (tests swap `fetch`). */
  engine?: EngineDeps;
}

export const DEFAULT_MAX_RESULT_CHARS = 20_000;

/** A model, its tools and its memory: what a ChatRunner runs. */
export class Agent {
  readonly registry = new ToolRegistry();
  readonly tools = new ToolManager(this.registry);
  readonly preamble: string | undefined;
  readonly parser: ToolCallParser;
  readonly conversations: ConversationStore;
  readonly maxResultChars: number;

  private constructor(
    readonly engine: Engine,
    options: AgentOptions,
  ) {
    this.preamble = options.preamble;
    this.parser = options.parser ?? new TagToolCallParser();
    this.conversations = options.conversations ?? new MemoryConversationStore();
    this.maxResultChars = options.maxResultChars ?? DEFAULT_MAX_RESULT_CHARS;
  }

  /** Make an agent for a plain-data engine config (the engine is built here, in this realm), or for an Engine of your own. */
  static async make(engine: EngineConfig | Engine, options: AgentOptions = {}): Promise<Agent> {
    const live = 'stream' in engine ? engine : createEngine(engine, options.engine);
    return new Agent(live, options);
  }

  /** Add a tool; throws DuplicateToolError on a taken name, InvalidToolError on a bad definition. */
  tool(tool: Tool): this {
    this.registry.register(tool);
    return this;
  }
}
