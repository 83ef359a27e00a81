import type { UntrustedFlow } from '../../core/run.js';
import type { Exposure } from './exposure.js';

/** The shortest argument string that counts as having come from a source (shorter ones, "yes", "Paris", match by chance). */
export const MIN_FLOW_CHARS = 8;

/** Counts the automaton's steps, for tests and benchmarks that check the search stays linear. */
export interface FlowWork {
  steps: number;
}

/**
 * The call's string arguments of at least 8 characters that occur verbatim in one of the
 * exposure's sources: each one's JSON Pointer and the call id of the first source holding it.
 * A source's content is the JSON the model read, so a string is also looked for as JSON writes
 * it (quotes and newlines escaped). One pass over the sources, whatever the number of strings
 * (Aho-Corasick over the strings): a megabyte of page and thousands of strings stay linear.
 */
export function flowsOf(args: unknown, exposure: Exposure, work?: FlowWork): UntrustedFlow[] {
  const longest = exposure.contents.reduce((most, content) => Math.max(most, content.length), 0);
  // A string longer than every source cannot occur in one.
  const strings = argumentStrings(args).filter(({ value }) => value.length <= longest);
  if (strings.length === 0) return [];
  const automaton = new Automaton();
  strings.forEach(({ value }, at) => {
    automaton.add(value, at);
    const escaped = JSON.stringify(value).slice(1, -1);
    if (escaped !== value && escaped.length <= longest) automaton.add(escaped, at);
  });
  automaton.link();
  const from = automaton.search(exposure.contents, strings.length, work);
  const flows: UntrustedFlow[] = [];
  strings.forEach(({ path }, at) => {
    const source = from[at];
    if (source !== undefined && source >= 0) flows.push({ path, from: exposure.sources[source]!.callId });
  });
  return flows;
}

/** Every string of at least MIN_FLOW_CHARS in a JSON value, with its JSON Pointer, in document order. */
export function argumentStrings(args: unknown): Array<{ path: string; value: string }> {
  const found: Array<{ path: string; value: string }> = [];
  const stack: Array<[unknown, string]> = [[args, '']];
  while (stack.length > 0) {
    const [value, path] = stack.pop()!;
    if (typeof value === 'string') {
      if (value.length >= MIN_FLOW_CHARS) found.push({ path, value });
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push([value[i], `${path}/${i}`]);
    } else if (typeof value === 'object' && value !== null) {
      // Own keys only, as JSON holds them: `__proto__` is a key like any other here.
      const keys = Object.keys(value);
      for (let i = keys.length - 1; i >= 0; i--) stack.push([(value as Record<string, unknown>)[keys[i]!], `${path}/${pointerToken(keys[i]!)}`]);
    }
  }
  return found;
}

/** A key as a JSON Pointer token (RFC 6901): `~` is `~0`, `/` is `~1`. */
function pointerToken(key: string): string {
  return key.replaceAll('~', '~0').replaceAll('/', '~1');
}

/**
 * An Aho-Corasick automaton over UTF-16 code units (what `String.prototype.includes` compares).
 * Edges live in one Map keyed by node and code unit, not a Map per node: a trie of many short
 * strings stays small.
 */
class Automaton {
  readonly #edges = new Map<number, number>();
  readonly #parent: number[] = [0];
  readonly #code: number[] = [0];
  readonly #depth: number[] = [0];
  /** The strings (by their index in the caller's list) that end at each node. */
  readonly #ends = new Map<number, number[]>();
  #fail: Int32Array = new Int32Array(0);
  /** The nearest node down the failure chain where a string ends, or -1. */
  #output: Int32Array = new Int32Array(0);
  /** 1 where a string ends (the scan asks at every character: an array, not the Map). */
  #isEnd: Uint8Array = new Uint8Array(0);

  add(text: string, index: number): void {
    let node = 0;
    for (let i = 0; i < text.length; i++) {
      const key = node * 0x10000 + text.charCodeAt(i);
      let next = this.#edges.get(key);
      if (next === undefined) {
        next = this.#parent.length;
        this.#edges.set(key, next);
        this.#parent.push(node);
        this.#code.push(text.charCodeAt(i));
        this.#depth.push(this.#depth[node]! + 1);
      }
      node = next;
    }
    const ends = this.#ends.get(node);
    if (ends) ends.push(index);
    else this.#ends.set(node, [index]);
  }

  /** Failure and output links, shallowest nodes first (a node's links point to shallower ones). */
  link(): void {
    const count = this.#parent.length;
    this.#fail = new Int32Array(count);
    this.#output = new Int32Array(count).fill(-1);
    this.#isEnd = new Uint8Array(count);
    for (const node of this.#ends.keys()) this.#isEnd[node] = 1;
    for (const node of byDepth(this.#depth)) {
      if (node === 0) continue;
      const parent = this.#parent[node]!;
      const fail = parent === 0 ? 0 : this.#step(this.#fail[parent]!, this.#code[node]!);
      this.#fail[node] = fail;
      this.#output[node] = this.#isEnd[fail] ? fail : this.#output[fail]!;
    }
  }

  /** For each string, the index of the first content that holds it (-1: none). Stops once every string is found. */
  search(contents: readonly string[], strings: number, work?: FlowWork): Int32Array {
    const from = new Int32Array(strings).fill(-1);
    // A node whose strings were reported: so were those down its output chain, which is never walked twice.
    const reported = new Uint8Array(this.#parent.length);
    let left = strings;
    for (let source = 0; source < contents.length && left > 0; source++) {
      const content = contents[source]!;
      let node = 0;
      for (let i = 0; i < content.length && left > 0; i++) {
        node = this.#step(node, content.charCodeAt(i), work);
        for (let end = this.#isEnd[node] ? node : this.#output[node]!; end >= 0 && !reported[end]; end = this.#output[end]!) {
          reported[end] = 1;
          for (const index of this.#ends.get(end)!) {
            if (from[index] !== -1) continue;
            from[index] = source;
            left--;
          }
        }
      }
    }
    return from;
  }

  /** The node reached from `node` on `code`, following failure links where it has no edge. */
  #step(node: number, code: number, work?: FlowWork): number {
    for (let at = node; ; at = this.#fail[at]!) {
      if (work) work.steps++;
      const next = this.#edges.get(at * 0x10000 + code);
      if (next !== undefined) return next;
      if (at === 0) return 0;
    }
  }
}

/** Node indices ordered by depth (a counting sort: depths are small integers). */
function byDepth(depth: readonly number[]): Int32Array {
  let deepest = 0;
  for (const d of depth) if (d > deepest) deepest = d;
  const starts = new Int32Array(deepest + 2);
  for (const d of depth) starts[d + 1]!++;
  for (let d = 1; d < starts.length; d++) starts[d]! += starts[d - 1]!;
  const order = new Int32Array(depth.length);
  depth.forEach((d, node) => {
    order[starts[d]!++] = node;
  });
  return order;
}
