import { checkTags } from '../../parser/call-tags.js';
import type { CallTags } from '../../core/types.js';
import type { ToolDefinition } from '../../core/types.js';
import { GbnfRules } from './gbnf.js';
import { callRule } from './grammar.js';
import { MAX_UNROLLED_REPEAT, schemaRule } from './grammar-schema.js';
import type { AnswerFormat } from '../types.js';
import type { ToolChoice } from '../../core/types.js';

/**
 * The GBNF grammar of an answering turn (the request carries the run's answer format): the answer
 * is JSON of the format's schema, so it always parses. With tools and `auto`, the reply is either
 * that answer or one or more calls (as `toolCallGrammar` writes them); with `none` or no tools, the
 * answer only. A forced call is never an answering turn (the runner sends no format then).
 */
export function answerGrammar(tools: readonly ToolDefinition[], choice: ToolChoice, tags: CallTags, format: AnswerFormat): string {
  checkTags(tags.open, tags.close);
  const rules = new GbnfRules();
  const answer = schemaRule(rules, format.schema, 'answer');
  if (tools.length === 0 || choice === 'none') return rules.grammar(answer);
  const call = rules.add('call', tools.map((tool) => callRule(rules, tool, tags)).join(' | '));
  return rules.grammar(`${answer} | ( ${call} "\\n"? )+`);
}

/** Keywords the schema → GBNF translation leaves out (local-grammar-schema.ts): the grammar is looser there. */
const LOOSE_KEYWORDS = [
  'pattern',
  'format',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  '$ref',
  'not',
  'if',
  'then',
  'else',
  'prefixItems',
  'uniqueItems',
  'contains',
  'minProperties',
  'maxProperties',
  'patternProperties',
  'propertyNames',
  'dependentRequired',
  'dependentSchemas',
  'dependencies',
];
const BOUNDS = ['minLength', 'maxLength', 'minItems', 'maxItems'];

/**
 * What of `schema` the grammar cannot hold the model to (keyword names, each once): the answer is
 * still validated after generation, and may need a retry there.
 */
export function looseKeywords(schema: unknown): string[] {
  const found = new Set<string>();
  const visit = (node: unknown, depth: number) => {
    if (typeof node !== 'object' || node === null || depth > 64) return;
    if (Array.isArray(node)) {
      for (const item of node) visit(item, depth + 1);
      return;
    }
    const s = node as Record<string, unknown>;
    for (const keyword of LOOSE_KEYWORDS) if (keyword in s) found.add(keyword);
    for (const keyword of BOUNDS) if (typeof s[keyword] === 'number' && (s[keyword] as number) > MAX_UNROLLED_REPEAT) found.add(keyword);
    if (Array.isArray(s.allOf) && s.allOf.length > 1) found.add('allOf');
    if (Array.isArray(s.items)) found.add('items (tuple)');
    for (const key of ['items', 'additionalProperties', 'anyOf', 'oneOf', 'allOf']) visit(s[key], depth + 1);
    if (typeof s.properties === 'object' && s.properties !== null) for (const value of Object.values(s.properties)) visit(value, depth + 1);
  };
  visit(schema, 0);
  return [...found];
}
