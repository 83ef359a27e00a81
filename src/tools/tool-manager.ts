import type { ToolRegistry } from './registry.js';
import { ajvLoaded, loadAjv } from '../validation/validate-args.js';
import type { ValidationMode } from '../validation/types.js';
import type { ToolCall, ToolResult } from '../core/types.js';
import { executeEntry, type ExecuteOptions } from './execute-entry.js';

export type { ExecuteOptions } from './execute-entry.js';

/** How a ToolManager is made. */
export interface ToolManagerOptions {
  /** Sets the registry's validation mode (see ToolRegistryOptions): `auto` (default) or `no-eval`. */
  validation?: ValidationMode;
}

/** Runs one call under its tool's policy. Never rejects for a tool's failure: failures are results. */
export class ToolManager {
  constructor(
    readonly registry: ToolRegistry,
    options: ToolManagerOptions = {},
  ) {
    if (options.validation !== undefined) registry.useValidation(options.validation);
  }

  /** Decode, validate and run `call`, with its timeout and retries; resolves with its ToolResult. */
  execute(call: ToolCall, options: ExecuteOptions = {}): Promise<ToolResult> {
    const run = () => executeEntry(this.registry, this.registry.entry(call.name), call, undefined, options);
    // `auto` validates with ajv's compiled validators; its compiler loads with the first call
    // that may need it, not with the SDK. Should it fail to load, the no-eval validator decides alike.
    if (this.registry.validation === 'auto' && !ajvLoaded()) return loadAjv().then(run, run);
    return run();
  }
}
