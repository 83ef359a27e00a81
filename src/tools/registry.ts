import { DuplicateToolError } from '../errors/duplicate-tool-error.js';
import { InvalidToolError } from '../errors/invalid-tool-error.js';
import { checkSchema } from '../validation/check-schema.js';
import { checkTool } from './check-tool.js';
import { validateStandard } from '../validation/standard-schema.js';
import type { Tool } from './types.js';
import type { ValidationMode } from '../validation/types.js';
import type { ToolDefinition } from '../core/types.js';
import { checkValidationMode } from '../validation/validate-args.js';
import { toolArgsCheck } from '../validation/tool-args-check.js';
import type { ArgsValidator } from '../validation/types.js';

/** A tool and its argument validator, as the ToolManager reads them. */
export interface RegisteredTool {
  tool: Tool;
  validate: ArgsValidator;
}

export interface ToolRegistryOptions {
  /**
   * How argument validators are built. `auto` (default): ajv's compiled validators, or,
   * where this realm refuses eval (a CSP without 'unsafe-eval'), a validator that needs
   * none, with the same decisions and messages. `no-eval`: never attempt eval, so a
   * strict-CSP page or a browser extension sees no CSP violation at all.
   */
  validation?: ValidationMode;
}

/**
 * The tools one agent may call, by name. Checks each tool (its schema too) on registration;
 * builds its validator when a call first needs it, in the mode set by then.
 */
export class ToolRegistry {
  readonly #entries = new Map<string, RegisteredTool>();
  /** Names still callable but no longer offered to the model (see `withdraw`). */
  readonly #withdrawn = new Set<string>();
  #validation: ValidationMode;
  /** What `definitions()` returns until the set of tools changes: every model turn asks for it. */
  #definitions: readonly ToolDefinition[] | undefined;
  /** What `holdsUntrusted()` returns until the set of tools changes: every run asks for it. */
  #untrusted: boolean | undefined;

  constructor(options: ToolRegistryOptions = {}) {
    this.#validation = checkValidationMode(options.validation ?? 'auto');
  }

  /** How this registry builds argument validators. */
  get validation(): ValidationMode {
    return this.#validation;
  }

  /**
   * Build validators in `mode` from now on, those of the tools already registered included
   * (what `new ToolManager(registry, { validation })` does). Validators are compiled when
   * first needed, so a tool registered before the mode was set has not tried eval.
   */
  useValidation(mode: ValidationMode): this {
    const validation = checkValidationMode(mode);
    if (validation === this.#validation) return this;
    this.#validation = validation;
    for (const entry of this.#entries.values()) entry.validate = this.#validatorFor(entry.tool);
    return this;
  }

  /** Add a tool; throws DuplicateToolError on a taken name, InvalidToolError on a bad definition. */
  register(tool: Tool): this {
    checkTool(tool);
    if (this.#entries.has(tool.name)) throw new DuplicateToolError(tool.name);
    this.#entries.set(tool.name, { tool, validate: this.#validatorFor(tool) });
    this.#changed();
    return this;
  }

  /** Remove the tool registered under `name`; whether there was one. */
  unregister(name: string): boolean {
    this.#withdrawn.delete(name);
    const had = this.#entries.delete(name);
    if (had) this.#changed();
    return had;
  }

  /**
   * Stop offering the tool named `standIn.name` to the model; calls naming it now go to
   * `standIn` (which says why). `unregister` ends it; registering the name again needs that first.
   */
  withdraw(standIn: Tool): void {
    checkTool(standIn);
    if (!this.#entries.has(standIn.name)) throw new InvalidToolError(standIn.name, 'cannot be withdrawn: no tool of that name is registered');
    this.#entries.set(standIn.name, { tool: standIn, validate: this.#validatorFor(standIn) });
    this.#withdrawn.add(standIn.name);
    this.#changed();
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

  /** What the model is told about every tool offered (not withdrawn), in registration order (the same frozen list until the set changes). */
  definitions(): readonly ToolDefinition[] {
    this.#definitions ??= Object.freeze(
      [...this.#entries.values()]
        .filter(({ tool }) => !this.#withdrawn.has(tool.name))
        .map(({ tool }) => Object.freeze({ name: tool.name, description: tool.description, parameters: tool.parameters })),
    );
    return this.#definitions;
  }

  /**
   * Whether any tool here may bring words from someone other than the person (`untrusted`, read in
   * `quarantine`, or a definition someone else wrote): what decides, with no scan per run, that a run watches for them.
   */
  holdsUntrusted(): boolean {
    this.#untrusted ??= [...this.#entries.values()].some(
      ({ tool }) => tool.untrusted === true || tool.quarantine !== undefined || tool.untrustedDefinition !== undefined,
    );
    return this.#untrusted;
  }

  #changed(): void {
    this.#definitions = undefined;
    this.#untrusted = undefined;
  }

  /**
   * A Standard Schema validates itself (nothing to compile). A JSON Schema is checked here,
   * without eval; its validator is built when a call first needs it, in this registry's current
   * mode (see toolArgsCheck: interpreted first, compiled by ajv once the tool is busy in `auto`).
   */
  #validatorFor(tool: Tool): ArgsValidator {
    if (tool.quarantine) {
      try {
        checkSchema(tool.quarantine.output);
      } catch (error) {
        throw new InvalidToolError(tool.name, `invalid quarantine output schema: ${(error as Error).message}`);
      }
    }
    const { standardSchema } = tool;
    if (standardSchema) return (value) => validateStandard(standardSchema, value);
    try {
      checkSchema(tool.parameters);
    } catch (error) {
      throw invalidSchema(tool, error);
    }
    return toolArgsCheck(tool.parameters, this.#validation, (error) => invalidSchema(tool, error));
  }
}

function invalidSchema(tool: Tool, error: unknown): InvalidToolError {
  return new InvalidToolError(tool.name, `invalid parameters schema: ${(error as Error).message}`);
}
