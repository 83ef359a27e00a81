import { DuplicateToolError } from '../errors/duplicate-tool-error.js';
import { errorMessage } from '../errors/error-message.js';
import { InvalidOptionError } from '../errors/invalid-option-error.js';
import { WebMcpError } from '../errors/webmcp-error.js';
import type { Tool } from '../tools/types.js';
import type { ValidationMode } from '../validation/types.js';
import { requireModelContext } from './availability.js';
import { afterLoadWithin, checkWaitMs } from './bounded-wait.js';
import type { ModelContext } from './model-context.js';
import type { offeredExecute, WebMcpApprove } from './offer-call.js';
import { isOffered, markOffered, unmarkOffered } from './offered-names.js';

/** How `offerWebMcpTools` offers tools. */
export interface OfferWebMcpToolsOptions {
  /** Aborting it withdraws every tool of this offer (and aborts their running calls). */
  signal?: AbortSignal;
  /**
   * Accepted for symmetry with the runner's option (`auto` or `no-eval`): the page validates
   * offered tools without eval either way (the page entry carries no compiler), with ajv's decisions.
   */
  validation?: ValidationMode;
  /** Asked before each call of a tool with `needsApproval`; without it such tools are skipped. */
  approve?: WebMcpApprove;
  /** How long each registration may take to settle, the document's load included; default 5 000. */
  waitMs?: number;
}

/** What `offerWebMcpTools` did: the names registered with the browser, and the ones left out (approval-gated, no `approve`). */
export interface OfferedWebMcpTools {
  offered: string[];
  skipped: string[];
}

/**
 * Offer tools to the browser's agents (and any other WebMCP caller) through
 * `document.modelContext.registerTool`; each call runs here, under the tool's policy.
 * All or none: if one registration fails, the ones made are withdrawn and this rejects.
 */
export async function offerWebMcpTools(tools: readonly Tool[], options: OfferWebMcpToolsOptions = {}): Promise<OfferedWebMcpTools> {
  const context = requireModelContext('registerTool');
  const { signal, approve } = checkOptions(options);
  const waitMs = checkWaitMs(options.waitMs);
  if (!Array.isArray(tools)) throw new InvalidOptionError('tools', 'must be an array of tools');
  // The validator and the call pipeline load with the first offer: a page that never offers a
  // tool (most pages of `ambi-web/worker`) carries neither.
  const [{ offeredTools }, { offeredExecute }] = await Promise.all([import('./offered-tools.js'), import('./offer-call.js')]);
  const entries = offeredTools(tools); // invalid_tool, duplicate_tool: before anything is offered
  if (signal?.aborted) throw new WebMcpError('aborted', 'The offer was withdrawn before it was made', { cause: signal.reason });
  const taken = [...entries.keys()].find(isOffered);
  if (taken !== undefined) throw new DuplicateToolError(taken);

  const offer = new AbortController();
  const offered: string[] = [];
  const skipped: string[] = [];
  signal?.addEventListener('abort', () => offer.abort(signal.reason), { once: true });
  offer.signal.addEventListener('abort', () => unmarkOffered(offered), { once: true });
  try {
    for (const [name, entry] of entries) {
      if (entry.tool.needsApproval && !approve) {
        skipped.push(name);
        continue;
      }
      if (offer.signal.aborted) throw withdrawnDuringOffer(offer.signal);
      await register(context, entry.tool, offeredExecute(entries, name, offer.signal, approve), offer.signal, waitMs);
      // Withdrawn while it registered: the browser dropped it, and it must not be marked as offered.
      if (offer.signal.aborted) throw withdrawnDuringOffer(offer.signal);
      offered.push(name);
      markOffered([name]);
    }
  } catch (error) {
    offer.abort(error);
    throw error;
  }
  return { offered, skipped };
}

function withdrawnDuringOffer(signal: AbortSignal): WebMcpError {
  return new WebMcpError('aborted', 'The offer was withdrawn while its tools were being registered', { cause: signal.reason });
}

/** Register one tool with the browser, within `waitMs`; a taken name is `duplicate_tool`. */
async function register(context: ModelContext, tool: Tool, execute: ReturnType<typeof offeredExecute>, signal: AbortSignal, waitMs: number): Promise<void> {
  const init = {
    name: tool.name,
    description: tool.description,
    inputSchema: tool.parameters,
    annotations: { readOnlyHint: tool.readOnly === true },
    execute,
  };
  try {
    await afterLoadWithin(`Registering "${tool.name}" with document.modelContext`, waitMs, () => context.registerTool(init, { signal }));
  } catch (error) {
    if (error instanceof WebMcpError) throw error;
    // Our names are valid WebMCP names, so the browser's InvalidStateError means the name is taken.
    if ((error as { name?: unknown } | null)?.name === 'InvalidStateError') throw new DuplicateToolError(tool.name);
    throw new WebMcpError('webmcp_refused', `document.modelContext refused "${tool.name}": ${errorMessage(error)}`, { cause: error });
  }
}

/** The options a caller can get wrong, checked before anything is registered. */
function checkOptions(options: OfferWebMcpToolsOptions): { signal?: AbortSignal; approve?: WebMcpApprove } {
  const { signal, approve, validation } = options;
  if (signal !== undefined && !(signal instanceof AbortSignal)) throw new InvalidOptionError('signal', 'must be an AbortSignal');
  if (approve !== undefined && typeof approve !== 'function') throw new InvalidOptionError('approve', 'must be a function of { name, arguments }');
  if (validation !== undefined && validation !== 'auto' && validation !== 'no-eval')
    throw new InvalidOptionError('validation', `must be 'auto' or 'no-eval', not ${String(validation)}`);
  return { ...(signal ? { signal } : {}), ...(approve ? { approve } : {}) };
}
