import type { McpToolDefinition } from './tool-definition.js';

/** A definition as comparable text: keys sorted at every level, so only a real change differs. */
export function definitionKey(definition: McpToolDefinition): string {
  return JSON.stringify(definition, (_key, value: unknown) =>
    value && typeof value === 'object' && !Array.isArray(value)
      ? Object.fromEntries(Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : value,
  );
}

/** The pinned tools (by server name) whose definition in `listed` differs from the pinned one, or that `listed` no longer has. */
export function changedTools(pinned: ReadonlyMap<string, string>, listed: readonly McpToolDefinition[]): string[] {
  const now = new Map(listed.map((tool) => [tool.name, definitionKey(tool)]));
  return [...pinned].filter(([name, key]) => now.get(name) !== key).map(([name]) => name);
}
