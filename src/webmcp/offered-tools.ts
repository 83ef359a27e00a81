import { DuplicateToolError } from '../errors/duplicate-tool-error.js';
import { errorMessage } from '../errors/error-message.js';
import { InvalidToolError } from '../errors/invalid-tool-error.js';
import { checkTool } from '../tools/check-tool.js';
import { compileNoEvalValidator } from '../validation/no-eval/no-eval-validator.js';
import type { RegisteredTool } from '../tools/registry.js';
import { validateStandard } from '../validation/standard-schema.js';
import type { Tool } from '../tools/types.js';
import type { CallableTools } from '../call/execute.js';

/**
 * The tools of one offer with their argument validators, checked and compiled once, before
 * anything is offered. The page entry carries no validator compiler (ajv loads in the runner
 * worker only), so offered tools are validated without eval, in either validation mode: the
 * no-eval validator makes ajv's decisions, with its messages.
 */
export function offeredTools(tools: readonly Tool[]): Map<string, RegisteredTool> & CallableTools {
  const entries = new Map<string, RegisteredTool>();
  for (const tool of tools) {
    checkTool(tool);
    if (entries.has(tool.name)) throw new DuplicateToolError(tool.name);
    entries.set(tool.name, { tool, validate: validatorOf(tool) });
  }
  // What the call pipeline looks a call's tool up in (src/call/execute.ts).
  return Object.assign(entries, { entry: (name: string) => entries.get(name), names: () => [...entries.keys()] });
}

function validatorOf(tool: Tool): RegisteredTool['validate'] {
  const { standardSchema } = tool;
  if (standardSchema) return (value) => validateStandard(standardSchema, value);
  try {
    return compileNoEvalValidator(tool.parameters);
  } catch (error) {
    throw new InvalidToolError(tool.name, `invalid parameters schema: ${errorMessage(error)}`);
  }
}
