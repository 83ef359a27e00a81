import type { ApproveOptions } from '../../call/approvals.js';
import { errorMessage } from '../../errors/error-message.js';
import type { WireApproveOptions } from '../wire/protocol.js';

/**
 * An approval as it crosses to the worker. Edited arguments that cannot be cloned (a function, a
 * DOM node) cannot go: the approval goes without them, saying why, and the call ends
 * `invalid_arguments` there, unrun, as in-process, instead of the approval being lost.
 */
export function crossingApproval(options: ApproveOptions | undefined): WireApproveOptions | undefined {
  if (options?.arguments === undefined) return options;
  try {
    structuredClone(options.arguments);
    return options;
  } catch (error) {
    const { arguments: _, ...rest } = options;
    return { ...rest, refusedArguments: `The edited arguments could not be used: they are not plain data (${errorMessage(error)})` };
  }
}
