import type { Tool } from './types.js';

/**
 * Who a tool is, beyond its name: what a standing decision ("always allow") and a recorded
 * approval are bound to, so they never decide for another tool that took the same name (an MCP
 * server's tool after another server's, a new version of a tool). A tool may say it (`identity`:
 * an MCP tool gives its server and pinned definition); otherwise it is its definition and the
 * policy a person saw: name, description, parameters, and whether it is read-only.
 */
export function toolIdentity(tool: Pick<Tool, 'name' | 'description' | 'parameters' | 'identity' | 'readOnly' | 'idempotent'>): string {
  if (tool.identity !== undefined) return tool.identity;
  const seen = JSON.stringify([tool.name, tool.description, tool.parameters, tool.readOnly === true, tool.idempotent]);
  return `${tool.name}#${fingerprint(seen)}`;
}

/** Two 32-bit FNV-1a hashes of `text` (different offsets) as 16 hex digits: a fingerprint, not a secret. */
export function fingerprint(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x050c5d1f;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    a = Math.imul(a ^ code, 0x01000193);
    b = Math.imul(b ^ code, 0x01000193);
  }
  return (a >>> 0).toString(16).padStart(8, '0') + (b >>> 0).toString(16).padStart(8, '0');
}
