import { defineTool } from '../../tools/define-tool.js';
import type { Tool } from '../../tools/types.js';
import type { CodeModeOptions } from '../../codemode/code-mode-options.js';
import { RUN_CODE_PARAMETERS, RUN_CODE_TOOL } from '../../codemode/run-code-definition.js';

/** Longest an attempt may last (what a timer can hold): a program waits for people and calls, whose own bounds stop them; its running time has `timeoutMs`. */
const NO_ATTEMPT_LIMIT_MS = 2_147_483_647;

/**
 * The `run_code` tool: runs the model's program in the sandbox, each `await tools.x(args)` a call
 * of the run (program-run.ts, loaded with the first program). It holds a slot of the run's own
 * limit only (`delegates`): its calls have a limit of their own, so a runner with one slot works.
 * Never retried. With a journal it counts as idempotent, as running it again is: each call it
 * had made continues from its record (a resume runs it again from its start); without one it
 * is not, and a resume reports it cut off. It never starts while its reply streams (it
 * delegates). Its own rule under untrusted content is `allow`: each of its calls is judged by its tool's.
 */
export function runCodeTool(bounds: CodeModeOptions, hasJournal: boolean): Tool {
  return {
    ...defineTool({
      name: RUN_CODE_TOOL,
      description: 'Run a JavaScript program that calls the tools as async functions.',
      parameters: RUN_CODE_PARAMETERS,
      idempotent: hasJournal,
      maxRetries: 0,
      timeoutMs: NO_ATTEMPT_LIMIT_MS,
      afterUntrusted: 'allow',
      // A held value as the program's source would run someone else's words as code.
      heldArguments: { code: 'refuse' },
      call: async ({ code }, ctx) => (await import('./program-run.js')).runCode(code, ctx, bounds),
    }),
    delegates: true,
  };
}

/** Whether `tool` is a `run_code` tool made here (an agent's sibling for a leaf makes its own). */
export function isRunCode(tool: Pick<Tool, 'name' | 'call'> | undefined): boolean {
  return tool?.name === RUN_CODE_TOOL;
}
