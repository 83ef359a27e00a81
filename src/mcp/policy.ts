import { DEFAULT_POLICY } from '../tools/policy.js';
import type { AfterUntrusted, HeldArguments, ToolPolicy } from '../tools/types.js';
import type { McpServerConfig } from './config.js';

/** MCP's tool annotations (the hints this SDK reads). */
export interface McpAnnotations {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** The effect policy of one server tool, as data for `Tool`. */
export interface McpToolEffects extends ToolPolicy {
  readOnly: boolean;
  needsApproval: boolean;
  untrusted: boolean;
  afterUntrusted?: AfterUntrusted;
  heldArguments?: HeldArguments;
  heldOutput?: 'plain';
}

/**
 * A server tool's policy: from its annotations with MCP's defaults when absent (readOnlyHint
 * false, destructiveHint true, idempotentHint false, openWorldHint true), so an unannotated tool
 * needs approval and its results are untrusted; then the config's `'*'` overrides, then the tool's own.
 */
export function effectsOf(serverName: string, annotations: McpAnnotations | undefined, config: McpServerConfig): McpToolEffects {
  const overrides = { ...config.policy?.['*'], ...config.policy?.[serverName] };
  const readOnly = overrides.readOnly ?? annotations?.readOnlyHint === true;
  const destructive = annotations?.destructiveHint ?? true;
  return {
    readOnly,
    idempotent: overrides.idempotent ?? (readOnly || annotations?.idempotentHint === true),
    needsApproval: overrides.needsApproval ?? (!readOnly && destructive),
    timeoutMs: overrides.timeoutMs ?? config.timeoutMs ?? DEFAULT_POLICY.timeoutMs,
    maxRetries: overrides.maxRetries ?? DEFAULT_POLICY.maxRetries,
    retryDelayMs: overrides.retryDelayMs ?? DEFAULT_POLICY.retryDelayMs,
    // A tool of an open world (MCP's default when the hint is absent) returns others' words.
    untrusted: overrides.untrusted ?? annotations?.openWorldHint !== false,
    ...(overrides.afterUntrusted !== undefined ? { afterUntrusted: overrides.afterUntrusted } : {}),
    // Only the app's policy: what a server says of its tool never lets a held value in.
    ...(overrides.heldArguments !== undefined ? { heldArguments: overrides.heldArguments } : {}),
    ...(overrides.heldOutput !== undefined ? { heldOutput: overrides.heldOutput } : {}),
  };
}
