import { InvalidToolError } from '../errors/invalid-tool-error.js';
import { TOOL_NAME_PATTERN } from './policy.js';
import { isStandardSchema } from './standard-schema.js';
import type { Tool } from './types.js';

/** Check a tool's name, description, schema shape and policy; throws InvalidToolError naming the problem. */
export function checkTool(tool: Tool): void {
  const name = typeof tool?.name === 'string' ? tool.name : String(tool?.name);
  const fail = (detail: string): never => {
    throw new InvalidToolError(name, detail);
  };
  if (!TOOL_NAME_PATTERN.test(name)) {
    fail('the name must be 1 to 64 letters, digits, "_" or "-" (what OpenAI-compatible servers accept)');
  }
  if (typeof tool.description !== 'string') fail('description must be a string');
  if (typeof tool.call !== 'function') fail('call must be a function');
  const schema = tool.parameters as unknown;
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    fail('parameters must be a JSON Schema object');
  }
  if ((schema as { type?: unknown }).type !== 'object') {
    fail('parameters must describe an object (`type: "object"` at the top level)');
  }
  if (!(Number.isFinite(tool.timeoutMs) && tool.timeoutMs > 0)) fail('timeoutMs must be a positive number');
  if (!(Number.isInteger(tool.maxRetries) && tool.maxRetries >= 0)) fail('maxRetries must be a whole number >= 0');
  if (!(Number.isFinite(tool.retryDelayMs) && tool.retryDelayMs >= 0)) fail('retryDelayMs must be a number >= 0');
  if (typeof tool.idempotent !== 'boolean') fail('idempotent must be true or false (say whether a retry is safe)');
  if (tool.readOnly !== undefined && typeof tool.readOnly !== 'boolean') fail('readOnly must be true or false');
  if (tool.readOnly === true && !tool.idempotent) fail('readOnly: true says the tool changes nothing, so it is idempotent: idempotent cannot be false');
  const approval = tool.needsApproval;
  if (approval !== undefined && typeof approval !== 'boolean' && typeof approval !== 'function') {
    fail('needsApproval must be a boolean or a function of the arguments');
  }
  if (tool.standardSchema !== undefined && !isStandardSchema(tool.standardSchema)) {
    fail('standardSchema must be a Standard Schema (an object with `~standard.validate`)');
  }
}
