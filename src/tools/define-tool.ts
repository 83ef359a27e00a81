import { DEFAULT_POLICY } from './policy.js';
import type { ArgsOf, ParametersSchema, Tool, ToolContext } from './types.js';

/** What `defineTool` takes: a definition, a policy (defaults filled in) and the call itself. */
export interface ToolSpec<S extends ParametersSchema, Output> {
  name: string;
  description: string;
  parameters: S;
  /** Per attempt; default 15 000. */
  timeoutMs?: number;
  /** Retries after a timeout, idempotent tools only; default 3. */
  maxRetries?: number;
  /** Default 500. */
  retryDelayMs?: number;
  /** Required: whether running the call twice is harmless. Only idempotent tools are retried. */
  idempotent: boolean;
  needsApproval?: boolean | ((args: ArgsOf<S>) => boolean | Promise<boolean>);
  call(args: ArgsOf<S>, ctx: ToolContext): Output | Promise<Output>;
}

/**
 * Define a tool; its arguments are typed from a literal `parameters` schema.
 * Nothing is checked or compiled here: that happens once, at registration, in the
 * realm that validates calls.
 */
export function defineTool<const S extends ParametersSchema, Output>(spec: ToolSpec<S, Output>): Tool<ArgsOf<S>, Output> {
  return {
    ...spec,
    timeoutMs: spec.timeoutMs ?? DEFAULT_POLICY.timeoutMs,
    maxRetries: spec.maxRetries ?? DEFAULT_POLICY.maxRetries,
    retryDelayMs: spec.retryDelayMs ?? DEFAULT_POLICY.retryDelayMs,
  };
}
