import { InvalidToolError } from '../errors/invalid-tool-error.js';
import { TOOL_NAME_PATTERN } from './policy.js';
import { isStandardSchema } from '../validation/standard-schema.js';
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
  if (tool.readOnly === true && !tool.idempotent) fail('a readOnly tool changes nothing, so it cannot be idempotent: false');
  const approval = tool.needsApproval;
  if (approval !== undefined && typeof approval !== 'boolean' && typeof approval !== 'function') {
    fail('needsApproval must be a boolean or a function of the arguments');
  }
  if (tool.target !== undefined && typeof tool.target !== 'function') fail('target must be a function of the arguments');
  if (tool.standardSchema !== undefined && !isStandardSchema(tool.standardSchema)) {
    fail('standardSchema must be a Standard Schema (an object with `~standard.validate`)');
  }
  if (tool.untrusted !== undefined && typeof tool.untrusted !== 'boolean') fail('untrusted must be true or false');
  if (tool.afterUntrusted !== undefined && !AFTER_UNTRUSTED.has(tool.afterUntrusted)) fail('afterUntrusted must be "allow", "ask" or "refuse"');
  const source = tool.untrustedDefinition;
  if (source !== undefined && (typeof source !== 'string' || source === ''))
    fail('untrustedDefinition must name who wrote the definition (a non-empty string)');
  if (tool.quarantine !== undefined) {
    const problem = quarantineFault(tool.quarantine);
    if (problem) fail(`quarantine ${problem}`);
  }
  const held = tool.heldArguments as unknown;
  if (held !== undefined) {
    if (typeof held !== 'object' || held === null || Array.isArray(held)) fail('heldArguments must map argument names to "allow", "ask" or "refuse"');
    for (const [argument, rule] of Object.entries(held as object))
      if (!AFTER_UNTRUSTED.has(rule)) fail(`heldArguments[${JSON.stringify(argument)}] must be "allow", "ask" or "refuse"`);
  }
  if (tool.heldOutput !== undefined && tool.heldOutput !== 'plain') fail('heldOutput must be "plain" (or absent)');
}

const AFTER_UNTRUSTED: ReadonlySet<unknown> = new Set(['allow', 'ask', 'refuse']);

/**
 * What is wrong with the shape of a tool's `quarantine`, if anything (the registry checks its
 * `output` schema itself, where schemas are checked: this file also runs on the page).
 */
function quarantineFault(quarantine: unknown): string | undefined {
  if (typeof quarantine !== 'object' || quarantine === null || Array.isArray(quarantine)) return 'must be an object with an `output` JSON Schema';
  const { output, instructions } = quarantine as { output?: unknown; instructions?: unknown };
  if (typeof output !== 'object' || output === null || Array.isArray(output)) return 'output must be a JSON Schema object';
  if (instructions !== undefined && typeof instructions !== 'string') return 'instructions must be a string';
  return undefined;
}
