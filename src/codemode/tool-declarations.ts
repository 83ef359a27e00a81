import { docComment, memberName, schemaToType } from './schema-to-type.js';

/** What a model needs to know of one tool to call it from a program. */
export interface DeclaredTool {
  name: string;
  description: string;
  /** JSON Schema of its arguments (an object). */
  parameters: unknown;
  /** JSON Schema of its output, when the tool declares one (an MCP tool's `outputSchema`); else the output is `unknown`. */
  outputSchema?: unknown;
}

/**
 * The program's `tools` object as a TypeScript declaration: one method per tool,
 * `name(args: {...}): Promise<output>`, each with its description; a name that is not an
 * identifier is quoted (the program calls it as `tools['name-with-dashes'](args)`).
 */
export function toolDeclarations(tools: readonly DeclaredTool[]): string {
  const members = tools.map((tool) => {
    const usage = memberName(tool.name) === tool.name ? '' : `\nCall it as tools[${JSON.stringify(tool.name)}]({ ... }).`;
    const comment = `  ${docComment(`${tool.description}${usage}`, '  ')}`;
    const args = schemaToType(tool.parameters, '  ');
    const output = tool.outputSchema === undefined ? 'unknown' : schemaToType(tool.outputSchema, '  ');
    return `${comment}\n  ${memberName(tool.name)}(args: ${args}): Promise<${output}>;`;
  });
  return `declare const tools: {\n${members.join('\n')}\n};`;
}
