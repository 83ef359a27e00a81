import { EngineError } from '../../errors/engine-error.js';
import { checkTags } from '../../parser/call-tags.js';
import { failureTable } from '../../parser/tag.js';
import type { CallTags } from '../../core/types.js';
import type { ToolDefinition } from '../../core/types.js';
import { charClass, GbnfRules, literal } from './gbnf.js';
import { jsonRule, schemaRule } from './grammar-schema.js';
import type { ToolChoice } from '../../core/types.js';

export type { CallTags };

/**
 * The GBNF grammar for one reply, or undefined for unconstrained text (no tools).
 * - `auto`: prose that never contains the open tag, then zero or more calls, then the end.
 * - `required`: exactly one call, to any registered tool.
 * - `{ name }`: exactly one call, to that tool.
 * - `none`: prose only (it cannot open a call).
 * A call is `open{"name": "<registered name>", "args": <JSON matching that tool's schema>}close`.
 * `tags` must be the agent's parser's; tags no parser accepts throw InvalidTagsError.
 */
export function toolCallGrammar(tools: readonly ToolDefinition[], choice: ToolChoice, tags: CallTags): string | undefined {
  checkTags(tags.open, tags.close);
  if (tools.length === 0) return undefined;
  const rules = new GbnfRules();
  if (choice === 'none') return rules.grammar(proseRule(rules, tags.open));
  if (typeof choice === 'object') {
    const tool = tools.find((candidate) => candidate.name === choice.name);
    if (!tool) throw new EngineError('invalid_tool_choice', `toolChoice names "${choice.name}", which is not a registered tool`);
    return rules.grammar(callRule(rules, tool, tags));
  }
  const call = rules.add('call', tools.map((tool) => callRule(rules, tool, tags)).join(' | '));
  if (choice === 'required') return rules.grammar(call);
  return rules.grammar(`${proseRule(rules, tags.open)} ( ${call} "\\n"? )*`);
}

/** One tool's call: its name as a literal, its arguments by its schema. */
export function callRule(rules: GbnfRules, tool: ToolDefinition, tags: CallTags): string {
  const ws = jsonRule(rules, 'ws');
  const args = schemaRule(rules, tool.parameters, `args-${tool.name}`);
  const name = literal(JSON.stringify(tool.name));
  return rules.add(
    `call-${tool.name}`,
    `${literal(tags.open)} "{" ${ws} "\\"name\\"" ${ws} ":" ${ws} ${name} ${ws} "," ${ws} "\\"args\\"" ${ws} ":" ${ws} ${args} ${ws} "}" ${literal(tags.close)}`,
  );
}

/**
 * Text that never contains `tag`: one rule per state of the tag's matching automaton (how much
 * of the tag the text now ends with, as in KMP). Reaching the whole tag has no rule, so a call
 * cannot hide in prose where the parser would find it, broken.
 */
export function proseRule(rules: GbnfRules, tag: string): string {
  const chars = Array.from(tag);
  const alphabet = [...new Set(chars)];
  const next = automaton(chars);
  const name = (state: number) => (state === 0 ? 'prose' : `prose-${state}`);
  for (let state = 0; state < chars.length; state++) {
    // Characters that move to a longer match (or complete the tag: no step) are listed; all others restart.
    const byTarget = new Map<number, string[]>();
    const special: string[] = [];
    for (const char of alphabet) {
      const target = next(state, char);
      if (target === 0) continue;
      special.push(char);
      if (target < chars.length) byTarget.set(target, [...(byTarget.get(target) ?? []), char]);
    }
    const steps = [`${charClass(special, true)} ${name(0)}`];
    for (const [target, group] of byTarget) steps.push(`${group.length === 1 ? literal(group[0]!) : charClass(group)} ${name(target)}`);
    rules.define(name(state), `( ${steps.join(' | ')} )?`);
  }
  return name(0);
}

/** The KMP transition: from `state` matched characters, reading `char`. */
function automaton(chars: string[]): (state: number, char: string) => number {
  const fallback = failureTable(chars);
  const step = (state: number, char: string): number => {
    if (chars[state] === char) return state + 1;
    return state === 0 ? 0 : step(fallback[state - 1]!, char);
  };
  return step;
}
