import type { ExtensionLoader } from '../../runner/run-setup.js';
import type { Tool } from '../../tools/types.js';
import { checkCodeMode } from '../../codemode/code-mode-options.js';
import { runCodeTool } from './run-code.js';

export { isRunCode } from './run-code.js';

/**
 * What Code Mode adds to an agent made with `codeMode` (checked here: `invalid_option`
 * otherwise): the `run_code` tool, and the extension that offers it alone (loaded with the first
 * run). Nothing when Code Mode is off: the sandbox's code is never named. `hasJournal`: the
 * agent's runs on a conversation record their calls (its journal, or its conversation store's),
 * so a resume runs a program again.
 */
export function codeModeParts(option: unknown, hasJournal: boolean): { tool: Tool; extension: ExtensionLoader } | undefined {
  const bounds = checkCodeMode(option);
  if (!bounds) return undefined;
  let loading: Promise<ExtensionLoader extends { load(): Promise<infer F> } ? F : never> | undefined;
  const extension: ExtensionLoader = {
    name: 'code-mode',
    wanted: () => true,
    load: () => {
      loading ??= import('./code-mode-extension.js').then(
        ({ codeModeExtension }) =>
          (setup) =>
            codeModeExtension(setup, bounds),
      );
      return loading;
    },
  };
  return { tool: runCodeTool(bounds, hasJournal), extension };
}
