import { validate, type OutputUnit, type Schema } from '@cfworker/json-schema';
import { missingDependencies, missingRequired, wordingOf, type Wording } from './keyword-problems.js';
import { resolveRef, type PreparedSchema } from './no-eval-schema.js';
import type { ArgsProblem } from '../problem.js';
import { jsonPointer } from '../problem.js';
import { FALSE_SCHEMA, isSchemaNode, keywordRank, type SchemaNode } from './schema-keywords.js';

// cfworker reports "output units" (a keyword location, an instance location, its own
// text); ajv reports one error per failed assertion, with its own messages, in the order
// of its generated code. This file turns the first into the second: each unit is walked
// down the prepared schema, which gives the schema and data it failed on (so ajv's message
// and params can be written) and a sort key that reproduces ajv's order.

/** One problem found, with where ajv would report it. */
interface Found {
  problem: ArgsProblem;
  /** Compared element by element; a key that ends sorts after every key it is a prefix of. */
  order: number[];
  /** Problems ajv reports once for several cfworker units (say one per missing property) share this. */
  once?: string;
}

const END = Number.POSITIVE_INFINITY;

/** ajv's problems, in ajv's order, for the units cfworker reported on `data` (already defaulted). */
export function problemsOf(units: readonly OutputUnit[], prepared: PreparedSchema, data: unknown): ArgsProblem[] {
  const found = new Walker(prepared, data).collect(units);
  const seen = new Set<string>();
  const unique = found.filter(({ once }) => once === undefined || (!seen.has(once) && seen.add(once)));
  return unique.sort((a, b) => compareOrder(a.order, b.order)).map(({ problem }) => problem);
}

function compareOrder(a: number[], b: number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i] ?? END;
    const y = b[i] ?? END;
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

/** The segments of a cfworker location (`#/a/b%20c`), decoded. */
function segments(location: string): string[] {
  if (location === '#' || location === '') return [];
  return location
    .slice(2)
    .split('/')
    .map((s) => decodeURIComponent(s).replaceAll('~1', '/').replaceAll('~0', '~'));
}

const keyIndex = (object: unknown, key: string | undefined) => (isSchemaNode(object) && key !== undefined ? Object.keys(object).indexOf(key) : -1);

/** Where the walk stands: a schema, the data it applies to, the data's path, and how it got here. */
interface Position {
  node: unknown;
  data: unknown;
  path: string[];
  order: number[];
  /** The applicator that led here, and the schema and path above it (what a `false` schema reports against). */
  via?: { keyword: string; parent: SchemaNode; path: string[]; name: string };
}

class Walker {
  /** Per oneOf schema and data location: the index of the second passing branch (ajv evaluates no further). */
  readonly #oneOfStops = new Map<SchemaNode, Map<string, number>>();

  constructor(
    readonly prepared: PreparedSchema,
    readonly data: unknown,
  ) {}

  collect(units: readonly OutputUnit[]): Found[] {
    return units.flatMap((unit) => this.#walk(unit));
  }

  #walk(unit: OutputUnit): Found[] {
    const keywords = segments(unit.keywordLocation);
    const instance = segments(unit.instanceLocation);
    let at = 0; // next unused segment of `instance`
    let here: Position = { node: this.prepared.root, data: this.data, path: [], order: [] };
    const extra: Found[] = [];
    const step = (node: unknown, name: string, order: number[], keyword: string, extendPath = true): Position => {
      const parent = here.node as SchemaNode;
      at++;
      return {
        node,
        data: extendPath ? (here.data as Record<string, unknown>)?.[name] : name,
        path: extendPath ? [...here.path, name] : here.path,
        order,
        via: { keyword, parent, path: here.path, name },
      };
    };

    for (let i = 0; i < keywords.length; ) {
      const keyword = keywords[i]!;
      const last = i === keywords.length - 1;
      const node = here.node;
      if (!isSchemaNode(node)) return [];
      if (node[FALSE_SCHEMA] === true) return [...extra, ...this.#falseSchema(here, keywords.slice(0, i).join('/'))];
      const order = [...here.order, keywordRank(node, keyword)];
      const next = keywords[i + 1];
      if (
        last &&
        !['properties', 'patternProperties', 'additionalProperties', 'items', 'additionalItems', '$ref', 'allOf', 'propertyNames', 'then', 'else'].includes(
          keyword,
        )
      ) {
        return [...extra, ...this.#terminal(unit, node, keyword, here, order)];
      }
      if (last) return extra; // a unit that only says "a subschema failed": its own units say how
      switch (keyword) {
        case '$ref':
          here = { ...here, node: resolveRef(node, this.prepared.lookup), order, via: undefined };
          i += 1;
          break;
        case 'properties':
          here = step((node.properties as SchemaNode)[next!], next!, [...order, Object.keys(node.properties as object).indexOf(next!)], keyword);
          i += 2;
          break;
        case 'patternProperties': {
          const name = instance[at]!;
          const patternIndex = Object.keys(node.patternProperties as object).indexOf(next!);
          here = step((node.patternProperties as SchemaNode)[next!], name, [...order, patternIndex, keyIndex(here.data, name)], keyword);
          i += 2;
          break;
        }
        case 'additionalProperties': {
          const name = instance[at]!;
          here = step(node.additionalProperties, name, [...order, keyIndex(here.data, name)], keyword);
          i += 1;
          break;
        }
        case 'items':
        case 'additionalItems':
        case 'contains': {
          const tuple = keyword === 'items' && Array.isArray(node.items);
          const index = tuple ? next! : instance[at]!;
          const schema = tuple ? (node.items as unknown[])[Number(index)] : node[keyword];
          here = step(schema, index, [...order, Number(index)], keyword);
          i += tuple ? 2 : 1;
          break;
        }
        case 'propertyNames': {
          // ajv checks each key as data at the object's own path, then reports the key.
          const name = instance[at]!;
          const keyOrder = [...order, keyIndex(here.data, name)];
          extra.push({
            problem: { instancePath: jsonPointer(here.path), keyword, params: { propertyName: name }, message: 'property name must be valid' },
            order: [...keyOrder, END],
            once: `propertyNames|${keywords.slice(0, i + 1).join('/')}|${jsonPointer(here.path)}|${name}`,
          });
          here = step(node.propertyNames, name, keyOrder, keyword, false);
          i += 1;
          break;
        }
        case 'dependencies':
          // Property dependencies report before schema dependencies.
          here = {
            ...here,
            node: (node.dependencies as SchemaNode)[next!],
            order: [...order, 1, Object.keys(node.dependencies as object).indexOf(next!)],
            via: undefined,
          };
          i += 2;
          break;
        case 'anyOf':
        case 'oneOf':
        case 'allOf': {
          const branch = Number(next);
          if (keyword === 'oneOf' && branch > this.#oneOfStop(node, here.data, unit.instanceLocation, instance.length - at)) return [];
          here = { ...here, node: (node[keyword] as unknown[])[branch], order: [...order, branch], via: undefined };
          i += 2;
          break;
        }
        case 'then':
        case 'else':
          here = { ...here, node: node[keyword], order: [...order, keyword === 'then' ? 0 : 1], via: undefined };
          i += 1;
          break;
        default:
          return extra;
      }
    }
    return extra;
  }

  /** ajv stops evaluating oneOf branches at the second one that passes; later branches report nothing. */
  #oneOfStop(node: SchemaNode, data: unknown, instanceLocation: string, deeper: number): number {
    const location = deeper === 0 ? instanceLocation : instanceLocation.split('/').slice(0, -deeper).join('/');
    let byLocation = this.#oneOfStops.get(node);
    if (!byLocation) this.#oneOfStops.set(node, (byLocation = new Map()));
    let stop = byLocation.get(location);
    if (stop === undefined) {
      const passing = (node.oneOf as Schema[]).flatMap((branch, i) => (this.#holds(data, branch) ? [i] : []));
      stop = passing[1] ?? END;
      byLocation.set(location, stop);
    }
    return stop;
  }

  #holds(data: unknown, schema: unknown): boolean {
    return validate(data, schema as Schema, '2019-09', this.prepared.lookup, true).valid;
  }

  /** The unit of a `false` schema (prepared as `{ not: {} }`), reported as ajv reports where it sits. */
  #falseSchema({ path, order, via }: Position, location: string): Found[] {
    if (via?.keyword === 'additionalProperties') {
      return [
        {
          problem: {
            instancePath: jsonPointer(via.path),
            keyword: 'additionalProperties',
            params: { additionalProperty: via.name },
            message: 'must NOT have additional properties',
          },
          order: [...order, END],
        },
      ];
    }
    if (via?.keyword === 'additionalItems') {
      const limit = (via.parent.items as unknown[]).length;
      const instancePath = jsonPointer(via.path);
      return [
        {
          problem: { instancePath, keyword: 'additionalItems', params: { limit }, message: `must NOT have more than ${limit} items` },
          order: [...order.slice(0, -1), END],
          once: `additionalItems|${location}|${instancePath}`,
        },
      ];
    }
    return [{ problem: { instancePath: jsonPointer(path), keyword: 'false schema', params: {}, message: 'boolean schema is false' }, order: [...order, END] }];
  }

  /** The problem(s) ajv reports for a failed keyword of `node` at `here`. */
  #terminal(unit: OutputUnit, node: SchemaNode, keyword: string, here: Position, order: number[]): Found[] {
    const instancePath = jsonPointer(here.path);
    const found = ({ params, message }: Wording, extraOrder: number[] = [], once?: string): Found => ({
      problem: { instancePath, keyword, params, message },
      order: [...order, ...extraOrder, END],
      ...(once ? { once } : {}),
    });
    const once = (detail: string) => `${keyword}|${unit.keywordLocation}|${instancePath}|${detail}`;
    switch (keyword) {
      case 'required':
        return missingRequired(node, here.data).map((w) => found(w, [], once(String(w.params.missingProperty))));
      case 'dependencies':
        // Property dependencies report before schema dependencies (see #walk).
        return missingDependencies(node, here.data).map((w) =>
          found(w, [0, w.entry], once(`${String(w.params.property)}|${String(w.params.missingProperty)}`)),
        );
      case 'if': {
        const clause = this.#holds(here.data, node.if) ? 'then' : 'else';
        return [found({ params: { failingKeyword: clause }, message: `must match "${clause}" schema` })];
      }
      case 'contains':
        return [...this.#containsItems(unit, node, here.data), found(wordingOf(node, keyword, here.data)!)];
      default: {
        const wording = wordingOf(node, keyword, here.data);
        if (wording) return [found(wording)];
        // uniqueItems over items of the wrong type: ajv skips those; anything else keeps cfworker's words.
        return keyword === 'uniqueItems' ? [] : [found({ params: {}, message: unit.error })];
      }
    }
  }

  /** A failed `contains` keeps, in ajv, every item's problems (cfworker drops them): validate each item again. */
  #containsItems(unit: OutputUnit, node: SchemaNode, data: unknown): Found[] {
    if (!Array.isArray(data)) return [];
    return data.flatMap((item, index) => {
      const result = validate(
        item,
        node.contains as Schema,
        '2019-09',
        this.prepared.lookup,
        false,
        null,
        `${unit.instanceLocation}/${index}`,
        `${unit.keywordLocation}`,
      );
      return this.collect(result.errors);
    });
  }
}
