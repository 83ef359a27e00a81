import type { ToolCall, ToolResult } from '../core/types.js';
import { executeCall } from './execute.js';
import type { ExecuteOptions } from './types.js';
import type { ValidationMode } from '../validation/types.js';
import { ajvFrom } from '../validation/validate-args.js';
import type { ToolRegistry } from '../tools/registry.js';

export type { CallHooks, CallRun, CallVerdict, ExecuteOptions, RunCall } from './types.js';

/** How a ToolManager is made. */
export interface ToolManagerOptions {
  /** Sets the registry's validation mode (see ToolRegistryOptions): `auto` (default) or `no-eval`. */
  validation?: ValidationMode;
}

/**
 * Runs one call under its tool's policy: the call pipeline (src/call/execute.ts) with this
 * registry. Never rejects for a tool's failure: failures are results. A ChatRunner runs every
 * call of a run through it, giving `run` (policy, slots, journal, events).
 */
export class ToolManager {
  constructor(
    readonly registry: ToolRegistry,
    options: ToolManagerOptions = {},
  ) {
    if (options.validation !== undefined) registry.useValidation(options.validation);
    // `auto` validation may compile with ajv where calls run through a ToolManager (an Agent's, the
    // runner worker's); code that runs calls without one (an extension's content script) never
    // names ajv's chunk, so a bundle that inlines every `import()` holds none of it.
    ajvFrom(loadAjvCompiler);
  }

  /** Decode, validate and run `call`, with its timeout and retries; resolves with its ToolResult. */
  execute(call: ToolCall, options: ExecuteOptions = {}): Promise<ToolResult> {
    return executeCall(this.registry, call, options);
  }
}

/** ajv's compiler, for `auto` validation: loaded in the background once a tool is busy (see validate-args.ts). */
async function loadAjvCompiler() {
  return (await import('../validation/ajv/ajv-validator.js')).compileAjvValidator;
}
