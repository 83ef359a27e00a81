import { type PreparedSchema, resolveRef } from '../../validation/no-eval/no-eval-schema.js';
import { isSchemaNode, type SchemaNode, subschemas } from '../../validation/no-eval/schema-keywords.js';

/**
 * What relative `$id`s and `$ref`s of a schema without an absolute `$id` resolve against here: a
 * URI no validator picks (ajv takes `''`, the no-eval validator the page's location), so a `$ref`
 * that names a validator's own choice of base is never taken to mean this schema.
 */
const HOME = 'https://schema.ambi-web.invalid/';

/**
 * The `$ref`s of one schema (as the validators prepared it: see checkSchema), resolved as JSON
 * Schema resolves them and as our validators do: against the base URI of the nearest `$id`, to a
 * schema of this document by its `$id` and a JSON Pointer from there. A `$ref` resolves only
 * where that is sure to be what the validators take: not one beside an `$id` (draft-07 says to
 * ignore it, validators differ), not a pointer that reaches into an embedded schema with an `$id`
 * of its own, not an anchor, not a URI outside the schema; and the no-eval validator's own
 * resolution must find the very same schema. Anchors (`$id` with a fragment) are refused outright.
 */
export class SchemaRefs {
  /** The base URI of every schema in the document. */
  readonly #base = new Map<SchemaNode, URL>();
  /** The document's schemas with an `$id` (the root also under HOME when it has none), by their URI without fragment. */
  readonly #resources = new Map<string, SchemaNode>();
  readonly #lookup: PreparedSchema['lookup'];

  /** Throws where the schema has what this does not resolve at all (an anchor, two schemas with one `$id`). */
  constructor({ root, lookup }: PreparedSchema) {
    this.#lookup = lookup;
    if (root.$id === undefined) this.#resources.set(HOME, root);
    // Iterative: a schema may be deep, and the walk must not overflow the stack.
    const stack: Array<[unknown, URL]> = [[root, new URL(HOME)]];
    while (stack.length > 0) {
      const [node, outer] = stack.pop()!;
      if (!isSchemaNode(node) || this.#base.has(node)) continue;
      const base = typeof node.$id === 'string' ? this.#resource(node, node.$id, outer) : outer;
      this.#base.set(node, base);
      for (const [, , sub] of subschemas(node)) stack.push([sub, base]);
    }
  }

  /** The schema `node.$ref` points at, or undefined where it does not surely resolve as the validators resolve it. */
  target(node: SchemaNode): unknown {
    const base = this.#base.get(node);
    if (typeof node.$ref !== 'string' || node.$id !== undefined || !base) return undefined;
    let url: URL;
    try {
      url = new URL(node.$ref, base);
    } catch {
      return undefined;
    }
    const fragment = url.hash;
    url.hash = '';
    let target: unknown = this.#resources.get(url.href);
    if (target === undefined) return undefined;
    if (fragment.length > 1) {
      if (!fragment.startsWith('#/')) return undefined; // an anchor
      for (const token of fragment.slice(2).split('/')) {
        const key = pointerKey(token);
        if (key === undefined || typeof target !== 'object' || target === null || !Object.hasOwn(target, key)) return undefined;
        target = (target as Record<string, unknown>)[key];
        // Into (or onto) an embedded schema with an `$id` of its own: whether the pointer may go there, validators differ.
        if (isSchemaNode(target) && target.$id !== undefined) return undefined;
      }
    }
    return resolveRef(node, this.#lookup) === target ? target : undefined;
  }

  /** Register `node` as the schema of `$id` (resolved against `outer`); its base URI for what it holds. */
  #resource(node: SchemaNode, id: string, outer: URL): URL {
    const url = new URL(id, outer);
    if (url.hash.length > 1) throw new Error(`an anchor ($id ${JSON.stringify(id)}) is not resolved here`);
    url.hash = '';
    if (this.#resources.has(url.href)) throw new Error(`two schemas have the $id ${url.href}`);
    this.#resources.set(url.href, node);
    return url;
  }
}

/** A JSON Pointer token of a URI fragment as a key (RFC 6901 in RFC 3986): percent-decoded, `~1` is `/`, `~0` is `~`. */
function pointerKey(token: string): string | undefined {
  try {
    return decodeURIComponent(token).replaceAll('~1', '/').replaceAll('~0', '~');
  } catch {
    return undefined;
  }
}
