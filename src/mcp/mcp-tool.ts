import { McpError } from '../errors/mcp-error.js';
import { fingerprint } from '../tools/identity.js';
import { displayUrl } from './display-url.js';
import { definitionKey } from './pinning.js';
import type { ParametersSchema } from '../core/types.js';
import type { Tool, ToolContext } from '../tools/types.js';
import type { JsonArgsValidator } from '../validation/types.js';
import type { McpServerConfig } from './config.js';
import { effectsOf } from './policy.js';
import { serverSchema } from './schema-dialect.js';
import type { McpCallOptions, McpSession } from './session.js';
import { answeredBeforeReload, personAsker } from './input/ask-person.js';
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
      const server = displayUrl(config.url);
      // The task a server answers with (the Tasks extension) is the call's handle: a run that journals it can follow it again.
      const onTask = (taskId: string) => {
        const handle = { kind: 'mcp_task', server, taskId } as const;
        // With the call's own record where the pipeline hands one over, else through the run (which notes it with the call in flight).
        if (ctx.noteHandle) ctx.noteHandle(handle).catch(() => {});
        else ctx.run?.noteHandle?.(ctx.callId, handle);
      };
      const resumeFrom = resumedFrom(ctx, name, server);
      const askInput = personAsker(ctx, name, server);
      const options = {
        signal: ctx.signal,
        timeoutMs: effects.timeoutMs,
        onprogress,
        pinned,
        onTask,
        askInput,
        ...(resumeFrom ? { resumeFrom } : {}),
        ...(trace ? { trace } : {}),
      };
      const result = await session.callTool(definition.name, args, options, definition);
      return toolOutput(name, result, checkOutput);
    },
    // What a standing decision stands for: this server's tool as pinned, whatever name it was given here.
    identity: mcpIdentity(config, definition),
  };
}

/**
 * Where a call resumed after a reload stands (`ctx.handle`, as the call noted it): its task, to
 * follow; its question, to ask again. A handle of another server, or a question already answered
 * (the server may have acted on the answers), ends the call `outcome_unknown`: it is never sent again.
 */
function resumedFrom(ctx: ToolContext, name: string, server: string): McpCallOptions['resumeFrom'] {
  const handle = ctx.handle;
  if (!handle) return undefined;
  if (handle.server !== server || (handle.kind === 'mcp_input' && handle.answered)) throw answeredBeforeReload(name);
  if (handle.kind === 'mcp_task') return { task: { taskId: handle.taskId, status: 'working' } };
  const state = handle.requestState !== undefined ? { requestState: handle.requestState } : {};
  return { question: { inputRequests: undefined, round: handle.round, requests: handle.requests, ...state } };
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
