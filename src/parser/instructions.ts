import type { ParametersSchema, ToolDefinition } from '../core/types.js';
import type { CallTags } from '../core/types.js';

/** System-prompt text that teaches the tag format, with these tags, for these tools. */
export function tagInstructions(definitions: readonly ToolDefinition[], tags: CallTags): string {
  const { open, close } = tags;
  if (definitions.length === 0) {
    return 'No tools are available in this conversation: answer directly, without tool calls.';
  }
  const first = definitions[0]!;
  const second = definitions[1] ?? first;
  const call = (tool: ToolDefinition) => JSON.stringify({ name: tool.name, args: exampleArgs(tool.parameters) });
  return [
    'You can call tools. To call a tool, write a block like this:',
    `${open}{"name": "tool_name", "args": {"parameter": "value"}}${close}`,
    '',
    'Rules:',
    // Tags appear only in whole example blocks: prose like "between <open> and <close>" would read as a broken block.
    `- Inside the tags put exactly one JSON object with "name" (the tool's name) and "args" (an object matching the tool's parameters), or a JSON array of such objects.`,
    '- To make several calls, write several blocks, or one block holding a JSON array of calls.',
    '- Put nothing else inside the tags: no explanation, no comments, no Markdown.',
    '- Use only the tools listed below, with arguments that match their JSON Schema.',
    '',
    'Available tools:',
    '',
    ...definitions.map(describeTool),
    'Example of one call:',
    `${open}${call(first)}${close}`,
    '',
    'Example of two calls in one block:',
    `${open}[${call(first)}, ${call(second)}]${close}`,
  ].join('\n');
}

/** One tool's entry: name, description and the JSON Schema of its parameters. */
function describeTool(tool: ToolDefinition): string {
  return `### ${tool.name}\n${tool.description}\nParameters (JSON Schema): ${JSON.stringify(tool.parameters)}\n`;
}

/** Placeholder arguments for the example: one value per required property (or per property, if none is required). */
function exampleArgs(schema: ParametersSchema): Record<string, unknown> {
  const properties = (schema.properties ?? {}) as Record<string, unknown>;
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : Object.keys(properties);
  return Object.fromEntries(required.map((key) => [key, placeholder(properties[key])]));
}

function placeholder(schema: unknown): unknown {
  if (typeof schema !== 'object' || schema === null) return 'value';
  const { type, enum: choices } = schema as { type?: unknown; enum?: unknown };
  if (Array.isArray(choices) && choices.length > 0) return choices[0];
  const kind = Array.isArray(type) ? type[0] : type;
  if (kind === 'number' || kind === 'integer') return 1;
  if (kind === 'boolean') return true;
  if (kind === 'array') return [];
  if (kind === 'object') return {};
  if (kind === 'null') return null;
  return 'value';
}
