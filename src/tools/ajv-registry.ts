import { compileAjvValidator } from '../validation/ajv/ajv-validator.js';
import { ToolRegistry as RegistryCore, type ToolRegistryOptions } from './registry.js';
import { provideAjv } from '../validation/validate-args.js';

/**
 * The ToolRegistry of the public API: ajv's compiler comes with it (a static import), so
 * `auto` validation works from its first, synchronous `register`. An Agent's registry is
 * the core class: `Agent.make` loads ajv with `import()` only for `auto`, so a runner
 * worker in `no-eval` mode never loads it.
 */
export class ToolRegistry extends RegistryCore {
  constructor(options: ToolRegistryOptions = {}) {
    provideAjv(compileAjvValidator);
    super(options);
  }
}
