import type { Tool } from '../tools/types.js';
import { untilAborted } from '../util/abort-source.js';

/**
 * Whether a tool asks a person before running a call with these (checked) arguments: its
 * `needsApproval` is `true`, or its rule returns anything truthy for them. A rule that throws
 * asks too: a rule that cannot decide never lets a call through unasked. The rule gets the
 * run's signal (a rule that decides in another realm stops there when the run stops waiting),
 * and a rule still deciding when it aborts ends with the signal's reason.
 * The one meaning of "asks", for the runner, for tools offered over WebMCP and in every realm.
 */
export async function ruleAsks(tool: Pick<Tool, 'needsApproval'>, args: unknown, signal: AbortSignal): Promise<boolean> {
  const rule = tool.needsApproval;
  if (typeof rule !== 'function') return Boolean(rule);
  let asked: unknown;
  try {
    asked = await untilAborted(Promise.resolve(rule(args, { signal })), signal);
  } catch (_error) {
    if (signal.aborted) throw signal.reason;
    return true;
  }
  return Boolean(asked);
}
