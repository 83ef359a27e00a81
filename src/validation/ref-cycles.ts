import { resolveRef, type PreparedSchema } from './no-eval/no-eval-schema.js';
import { isSchemaNode, subschemas, type SchemaNode } from './no-eval/schema-keywords.js';

/**
 * Keywords whose subschemas apply to the very value the schema applies to. Following only
 * these (and `$ref`), a validator makes no progress into the value: a loop of them never ends.
 */
const IN_PLACE = new Set(['allOf', 'anyOf', 'oneOf', 'not', 'if', 'then', 'else', 'dependencies']);

/**
 * Refuse a schema whose `$ref`s loop back without going into a property or an item
 * (`{ "$ref": "#" }`, `allOf: [{ "$ref": "#" }]`, two definitions that refer to each other):
 * validating any value against it would recurse without end, in ajv's compiled code and in
 * the no-eval validator alike (one overflows when compiling, the other when validating).
 * Recursion through `properties`, `items` and the like is fine: each step goes one level
 * into the value, whose depth is bounded. Throws an Error naming the `$ref` that closes the loop.
 */
export function checkRefCycles({ root, lookup }: PreparedSchema): void {
  const nodes = reachable(root, lookup);
  // Depth-first over in-place edges only: a node met again while still open closes a loop.
  const state = new Map<SchemaNode, 'open' | 'done'>();
  for (const start of nodes) {
    if (state.has(start)) continue;
    const stack: Array<{ node: SchemaNode; next: Iterator<[SchemaNode, string | undefined]> }> = [{ node: start, next: inPlace(start, lookup) }];
    state.set(start, 'open');
    while (stack.length > 0) {
      const top = stack.at(-1)!;
      const step = top.next.next();
      if (step.done) {
        state.set(top.node, 'done');
        stack.pop();
        continue;
      }
      const [child, ref] = step.value;
      const seen = state.get(child);
      if (seen === 'open') {
        throw new Error(
          `$ref ${JSON.stringify(ref ?? '')} refers back to a schema that holds it without going into a property or an item: validating would never end`,
        );
      }
      if (seen === undefined) {
        state.set(child, 'open');
        stack.push({ node: child, next: inPlace(child, lookup) });
      }
    }
  }
}

/** The schemas a validator may apply to the same value right after `node`, each with the `$ref` that led there (if one did). */
function* inPlace(node: SchemaNode, lookup: PreparedSchema['lookup']): Generator<[SchemaNode, string | undefined]> {
  if (node.$ref !== undefined) {
    const target = resolveRef(node, lookup);
    if (isSchemaNode(target)) yield [target, String(node.$ref)];
  }
  for (const [keyword, , sub] of subschemas(node)) if (IN_PLACE.has(keyword) && isSchemaNode(sub)) yield [sub, undefined];
}

/** Every schema a validator may reach from `root` (through `$ref` too; unused definitions are not compiled, so not counted). */
function reachable(root: SchemaNode, lookup: PreparedSchema['lookup']): SchemaNode[] {
  const seen = new Set<SchemaNode>([root]);
  const stack = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    const next: unknown[] = node.$ref !== undefined ? [resolveRef(node, lookup)] : [];
    for (const [keyword, , sub] of subschemas(node)) if (keyword !== 'definitions' && keyword !== '$defs') next.push(sub);
    for (const sub of next) {
      if (isSchemaNode(sub) && !seen.has(sub)) {
        seen.add(sub);
        stack.push(sub);
      }
    }
  }
  return [...seen];
}
