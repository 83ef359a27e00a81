import type { RunExtension } from '../../runner/extension.js';
import type { RunSetup } from '../../runner/run-setup.js';
import type { CodeModeOptions } from '../../codemode/code-mode-options.js';
import { resolveLimits } from '../../codemode/limits.js';
import { RUN_CODE_PARAMETERS, RUN_CODE_TOOL, runCodeDescription } from '../../codemode/run-code-tool.js';

/**
 * Code Mode's side of a run:
 *
 *   beforeTurn   the model is offered `run_code` alone, its description holding the tools the
 *                request offered (as the other extensions left them) as TypeScript declarations;
 *                a tag-calling model's instructions list `run_code` alone too
 *
 * `run_code` never starts while its reply streams (a program's calls may have effects): it
 * `delegates` (run-code.ts), as a leaf does.
 *
 * Last among a run's extensions: the untrusted extension has judged the request with the tools'
 * own definitions (one someone else wrote is in the program's declarations too).
 */
export function codeModeExtension(setup: RunSetup, bounds: CodeModeOptions): RunExtension {
  const limits = resolveLimits(bounds);
  const { parser, engine, registry } = setup.agent;
  return {
    name: 'code-mode',
    beforeTurn(request) {
      const offered = request.engine.tools;
      const declared = offered
        .filter((tool) => tool.name !== RUN_CODE_TOOL)
        .map((tool) => {
          const outputSchema = (registry.get(tool.name) as { outputSchema?: unknown } | undefined)?.outputSchema;
          return { ...tool, ...(outputSchema !== undefined ? { outputSchema } : {}) };
        });
      const runCode = { name: RUN_CODE_TOOL, description: runCodeDescription(declared, limits), parameters: RUN_CODE_PARAMETERS };
      const listed = engine.nativeTools || offered.length === 0 ? -1 : request.instructions.indexOf(parser.instructions(offered));
      if (listed >= 0) request.instructions.splice(listed, 1, parser.instructions([runCode]));
      else if (!engine.nativeTools) request.instructions.unshift(parser.instructions([runCode]));
      request.engine.tools = [runCode];
    },
  };
}
