import { isAmbiError } from '../../errors/ambi-error.js';
import type { OnToolError } from '../../tools/types.js';
import { callReporting } from '../../util/call-reporting.js';
import { isThenable } from '../../util/thenable.js';
import type { ToolInvoker } from '../wire/protocol.js';

/**
 * `invoker`, telling `onToolError` on the page what its tool threw when it failed of itself (not
 * a coded error such as a ToolError): the runner worker, and the model, get only `crashed` and
 * its message. A tool worker's throw arrives here as it crossed, stack included.
 */
export function reportedInvoker(tool: string, invoker: ToolInvoker, onToolError: OnToolError | undefined): ToolInvoker {
  if (!onToolError) return invoker;
  return {
    needsApproval: (args, abort) => invoker.needsApproval(args, abort),
    ...(invoker.target ? { target: invoker.target.bind(invoker) } : {}),
    call: (args, ctx, abort) => {
      const report = (error: unknown) => {
        if (!isAmbiError(error)) callReporting(() => onToolError({ tool, callId: ctx.callId, attempt: ctx.attempt, error }));
        throw error;
      };
      let output: ReturnType<ToolInvoker['call']>;
      try {
        output = invoker.call(args, ctx, abort);
      } catch (error) {
        return report(error);
      }
      return isThenable(output) ? Promise.resolve(output).catch(report) : output;
    },
  };
}
