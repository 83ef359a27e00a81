import { DuplicateToolError } from '../errors/duplicate-tool-error.js';
import { InvalidToolError } from '../errors/invalid-tool-error.js';
import { checkTool } from './check-tool.js';
import type { Tool, ToolDefinition } from './types.js';
import { compileArgsValidator, type ArgsValidator } from './validate-args.js';

/** A tool and its compiled argument validator, as the ToolManager reads them. */
export interface RegisteredTool {
  tool: Tool;
  validate: ArgsValidator;
}

/** The tools one agent may call, by name. Checks and compiles each tool once, on registration. */
export class ToolRegistry {
  readonly #entries = new Map<string, RegisteredTool>();

  /** Add a tool; throws DuplicateToolError on a taken name, InvalidToolError on a bad definition. */
  register(tool: Tool): this {
    checkTool(tool);
    if (this.#entries.has(tool.name)) throw new DuplicateToolError(tool.name);
    let validate: ArgsValidator;
    try {
      validate = compileArgsValidator(tool.parameters);
    } catch (error) {
      throw new InvalidToolError(tool.name, `invalid parameters schema: ${(error as Error).message}`);
    }
    this.#entries.set(tool.name, { tool, validate });
    return this;
  }

  /** The tool registered under `name`, if any. */
  get(name: string): Tool | undefined {
    return this.#entries.get(name)?.tool;
  }

  /** The tool and its validator, for the ToolManager. */
  entry(name: string): RegisteredTool | undefined {
    return this.#entries.get(name);
  }

  has(name: string): boolean {
    return this.#entries.has(name);
  }

  names(): string[] {
    return [...this.#entries.keys()];
  }

  /** What the model is told about every tool, in registration order. */
  definitions(): ToolDefinition[] {
    return [...this.#entries.values()].map(({ tool }) => ({
      name: tool.name,
      description: tool.description,
      parameters: tool.parameters,
    }));
  }
}
