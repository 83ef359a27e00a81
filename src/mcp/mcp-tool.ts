import { McpError } from '../errors/mcp-error.js';
import { fingerprint } from '../tools/identity.js';
import { displayUrl } from './display-url.js';
import { definitionKey } from './pinning.js';
import type { ParametersSchema } from '../core/types.js';
import type { Tool } from '../tools/types.js';
import type { JsonArgsValidator } from '../validation/types.js';
import type { McpServerConfig } from './config.js';
import { effectsOf } from './policy.js';
import { serverSchema } from './schema-dialect.js';
import type { McpSession } from './session.js';
import type { McpToolDefinition } from './tool-definition.js';
import { toolOutput } from './tool-output.js';

/**
 * A server tool as a Tool: its pinned definition, a policy from its annotations, and a call
 * that goes to the server with a progress token (progress becomes `tool_progress` events)
 * and the call's signal (an abort or our timeout sends `notifications/cancelled`).
 */
export function mcpTool(
  definition: McpToolDefinition,
  name: string,
  session: McpSession,
  config: McpServerConfig,
  checkOutput: JsonArgsValidator | undefined,
  /** Whether the definition is still the pinned one (see McpCallOptions). */
  pinned: () => boolean,
): Tool {
  const effects = effectsOf(definition.name, definition.annotations, config);
  return {
    name,
    description: definition.description ?? definition.title ?? '',
    parameters: serverSchema(definition.inputSchema) as ParametersSchema,
    ...effects,
    // The server wrote this definition: an untrusted tool's exposes the requests that offer it, unless accepted at connect.
    ...(effects.untrusted && config.acceptDefinitions !== true ? { untrustedDefinition: `mcp:${displayUrl(config.url)}` } : {}),
    call: async (args, ctx) => {
      const onprogress = ({ progress, total, message }: { progress: number; total?: number; message?: string }) =>
        ctx.run?.emit({
          type: 'tool_progress',
          callId: ctx.callId,
          progress,
          ...(total !== undefined ? { total } : {}),
          ...(message !== undefined ? { message } : {}),
        });
      // A traced run's call carries its span's context to the server, in `_meta` as MCP's conventions put it.
      const trace = await ctx.run?.traceContext?.(ctx.callId);
      // The task a server answers with (the Tasks extension) is the call's handle: a run that journals it can follow it again.
      const onTask = (taskId: string) => ctx.run?.noteHandle?.(ctx.callId, { kind: 'mcp_task', server: displayUrl(config.url), taskId });
      const options = { signal: ctx.signal, timeoutMs: effects.timeoutMs, onprogress, pinned, onTask, ...(trace ? { trace } : {}) };
      const result = await session.callTool(definition.name, args, options, definition);
      return toolOutput(name, result, checkOutput);
    },
    // What a standing decision stands for: this server's tool as pinned, whatever name it was given here.
    identity: mcpIdentity(config, definition),
  };
}

/** An MCP tool's identity: its server (its URL without secrets) and its pinned definition. */
function mcpIdentity(config: McpServerConfig, definition: McpToolDefinition): string {
  return `mcp:${displayUrl(config.url)}#${definition.name}#${fingerprint(definitionKey(definition))}`;
}

/** What stands in for a tool whose definition changed on the server: not offered to the model, and every call is `tool_changed`. */
export function withdrawnTool(tool: Tool, serverName: string): Tool {
  return {
    name: tool.name,
    description: tool.description,
    parameters: { type: 'object' },
    timeoutMs: tool.timeoutMs,
    maxRetries: 0,
    retryDelayMs: tool.retryDelayMs,
    idempotent: true,
    // It changes nothing (it only says the tool is withdrawn): a call of it is never worth a card.
    readOnly: true,
    // A call that started before the withdrawal ends with this in the registry: its result stays untrusted.
    ...(tool.untrusted !== undefined ? { untrusted: tool.untrusted } : {}),
    call: () => {
      throw new McpError(
        'tool_changed',
        `Tool "${tool.name}" changed on the MCP server "${serverName}" after connection; it is withdrawn until the connection is refreshed`,
      );
    },
  };
}
