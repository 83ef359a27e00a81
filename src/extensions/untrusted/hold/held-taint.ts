import type { HeldArgument, UntrustedSource } from '../../../core/run.js';
import type { AfterUntrusted, Tool } from '../../../tools/types.js';
import type { HeldValues } from './held-values.js';
import { type HeldReference, topLevelOf } from './references.js';

/** What the held values a call carries make of it: which, from where, and the strictest rule of the arguments they are in. */
export interface HeldTaint {
  held: HeldArgument[];
  /** The calls whose results they are, oldest first. */
  sources: UntrustedSource[];
  rule: AfterUntrusted;
}

const STRICTNESS: Record<AfterUntrusted, number> = { allow: 0, ask: 1, refuse: 2 };

/** The stricter of two rules (`refuse` over `ask` over `allow`). */
export function stricter(a: AfterUntrusted, b: AfterUntrusted): AfterUntrusted {
  return STRICTNESS[a] >= STRICTNESS[b] ? a : b;
}

/**
 * The taint of a call of `tool` whose arguments make `references`, or undefined when none names
 * a value the conversation holds (such a call ends `unknown_held` before its policy is asked).
 * Each reference is decided by the top-level argument it sits in: `heldArguments` names it, or
 * the tool's `afterUntrusted` (`after`) decides; a reference in place of the whole arguments too.
 */
export function heldTaint(
  tool: Pick<Tool, 'heldArguments'>,
  after: AfterUntrusted,
  references: readonly HeldReference[],
  values: HeldValues,
): HeldTaint | undefined {
  const held: HeldArgument[] = [];
  const bySeq = new Map<number, UntrustedSource>();
  let rule: AfterUntrusted = 'allow';
  for (const { path, id } of references) {
    const info = values.info(id);
    if (!info) continue;
    held.push({ path, id, from: info.from });
    bySeq.set(info.seq, { callId: info.callId, name: info.from });
    rule = stricter(rule, ruleOf(tool, after, path));
  }
  if (held.length === 0) return undefined;
  const sources = [...bySeq].sort(([a], [b]) => a - b).map(([, source]) => source);
  return { held, sources: unique(sources), rule };
}

/** What the argument at `path` says of a held value in it. */
function ruleOf(tool: Pick<Tool, 'heldArguments'>, after: AfterUntrusted, path: string): AfterUntrusted {
  const argument = topLevelOf(path);
  const named = tool.heldArguments;
  // Own keys only: an argument named `constructor` or `__proto__` reads no prototype's member.
  if (argument === undefined || !named || !Object.hasOwn(named, argument)) return after;
  return named[argument]!;
}

/** Sources as a card lists them: each call once (two values held from one call's result, say its output and a later read). */
function unique(sources: UntrustedSource[]): UntrustedSource[] {
  const seen = new Set<string>();
  return sources.filter((source) => !seen.has(source.callId) && Boolean(seen.add(source.callId)));
}
