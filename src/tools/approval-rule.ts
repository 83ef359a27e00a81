/** A tool's approval rule: decided from the call's arguments. */
export type ApprovalRule = (args: unknown) => boolean | Promise<boolean>;

// Rules that decide in another realm (a page, a tool worker): they must hear when the run
// stops waiting, so the work there stops too. Other rules are called with the arguments alone.
const signalled = new WeakSet<ApprovalRule>();

/** A rule that is also given the run's signal, as a second argument. */
export function withRunSignal(rule: (args: unknown, signal: AbortSignal) => Promise<boolean>): ApprovalRule {
  const marked = rule as ApprovalRule;
  signalled.add(marked);
  return marked;
}

/** Apply `rule` to `args`; a rule made by `withRunSignal` also gets `signal`. */
export function applyRule(rule: ApprovalRule, args: unknown, signal: AbortSignal): boolean | Promise<boolean> {
  return signalled.has(rule) ? (rule as (args: unknown, signal: AbortSignal) => Promise<boolean>)(args, signal) : rule(args);
}
