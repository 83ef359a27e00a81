// A small recognizer for the GBNF that src/engines/local-grammar*.ts writes (one rule per line;
// literals, classes, groups, rule names, * + ? {m} {m,} {m,n}), so Node tests can check that a
// grammar accepts exactly the replies it should. Also a syntax check: it throws on text it cannot read.

type Node =
  | { kind: 'literal'; chars: string[] }
  | { kind: 'class'; negated: boolean; ranges: Array<[number, number]> }
  | { kind: 'ref'; name: string }
  | { kind: 'alt'; options: Node[][] }
  | { kind: 'repeat'; node: Node; min: number; max: number };

export class GbnfGrammar {
  private readonly rules = new Map<string, Node>();

  constructor(text: string) {
    for (const line of text.split('\n')) {
      if (line.trim() === '' || line.trim().startsWith('#')) continue;
      const match = /^([a-zA-Z0-9-]+) ::= (.*)$/.exec(line);
      if (!match) throw new Error(`not a rule line: ${line}`);
      if (this.rules.has(match[1]!)) throw new Error(`rule defined twice: ${match[1]}`);
      const parser = new Parser(match[2]!);
      this.rules.set(match[1]!, parser.alternatives());
      parser.expectEnd();
    }
    for (const name of this.references()) if (!this.rules.has(name)) throw new Error(`undefined rule: ${name}`);
    if (!this.rules.has('root')) throw new Error('no root rule');
  }

  /** Rule names the grammar defines. */
  get names(): string[] {
    return [...this.rules.keys()];
  }

  /** True when the whole of `text` is a sentence of the grammar. */
  accepts(text: string, rule = 'root'): boolean {
    const input = Array.from(text);
    const memo = new Map<string, Set<number>>();
    const ends = (node: Node, at: number): Set<number> => {
      switch (node.kind) {
        case 'literal': {
          for (let i = 0; i < node.chars.length; i++) if (input[at + i] !== node.chars[i]) return new Set();
          return new Set([at + node.chars.length]);
        }
        case 'class': {
          const char = input[at];
          if (char === undefined) return new Set();
          const code = char.codePointAt(0)!;
          const inside = node.ranges.some(([low, high]) => code >= low && code <= high);
          return inside !== node.negated ? new Set([at + 1]) : new Set();
        }
        case 'ref': {
          const key = `${node.name}@${at}`;
          const known = memo.get(key);
          if (known) return known;
          memo.set(key, new Set()); // no left recursion is written; this guards against it anyway
          const result = ends(this.rules.get(node.name)!, at);
          memo.set(key, result);
          return result;
        }
        case 'alt': {
          const out = new Set<number>();
          for (const sequence of node.options) for (const end of sequenceEnds(sequence, at)) out.add(end);
          return out;
        }
        case 'repeat': {
          let frontier = new Set([at]);
          const out = new Set<number>(node.min === 0 ? [at] : []);
          for (let count = 1; count <= node.max && frontier.size > 0; count++) {
            const nextFrontier = new Set<number>();
            for (const position of frontier) for (const end of ends(node.node, position)) if (end !== position) nextFrontier.add(end);
            if (count >= node.min) for (const end of nextFrontier) out.add(end);
            frontier = nextFrontier;
          }
          return out;
        }
      }
    };
    const sequenceEnds = (sequence: Node[], at: number): Set<number> => {
      let positions = new Set([at]);
      for (const node of sequence) {
        const next = new Set<number>();
        for (const position of positions) for (const end of ends(node, position)) next.add(end);
        positions = next;
        if (positions.size === 0) break;
      }
      return positions;
    };
    return ends({ kind: 'ref', name: rule }, 0).has(input.length);
  }

  private references(): Set<string> {
    const names = new Set<string>();
    const visit = (node: Node) => {
      if (node.kind === 'ref') names.add(node.name);
      else if (node.kind === 'alt') node.options.flat().forEach(visit);
      else if (node.kind === 'repeat') visit(node.node);
    };
    this.rules.forEach(visit);
    return names;
  }
}

class Parser {
  private position = 0;
  constructor(private readonly text: string) {}

  alternatives(): Node {
    const options: Node[][] = [this.sequence()];
    while (this.peek() === '|') {
      this.position++;
      options.push(this.sequence());
    }
    return { kind: 'alt', options };
  }

  expectEnd(): void {
    this.skipSpace();
    if (this.position < this.text.length) throw new Error(`unexpected text at ${this.position}: ${this.text.slice(this.position)}`);
  }

  private sequence(): Node[] {
    const items: Node[] = [];
    for (;;) {
      const char = this.peek();
      if (char === undefined || char === '|' || char === ')') return items;
      items.push(this.postfix(this.atom()));
    }
  }

  private atom(): Node {
    const char = this.peek();
    if (char === '"') return this.literal();
    if (char === '[') return this.charClass();
    if (char === '(') {
      this.position++;
      const inner = this.alternatives();
      if (this.peek() !== ')') throw new Error(`missing ) at ${this.position}`);
      this.position++;
      return inner;
    }
    const name = /^[a-zA-Z0-9-]+/.exec(this.text.slice(this.position))?.[0];
    if (!name) throw new Error(`unexpected ${char} at ${this.position} in ${this.text}`);
    this.position += name.length;
    return { kind: 'ref', name };
  }

  private postfix(node: Node): Node {
    const char = this.text[this.position];
    if (char === '*') return this.step({ kind: 'repeat', node, min: 0, max: Infinity });
    if (char === '+') return this.step({ kind: 'repeat', node, min: 1, max: Infinity });
    if (char === '?') return this.step({ kind: 'repeat', node, min: 0, max: 1 });
    if (char === '{') {
      const match = /^\{(\d+)(,(\d*))?\}/.exec(this.text.slice(this.position));
      if (!match) throw new Error(`bad repetition at ${this.position}`);
      this.position += match[0].length;
      const min = Number(match[1]);
      const max = match[2] === undefined ? min : match[3] === '' ? Infinity : Number(match[3]);
      return { kind: 'repeat', node, min, max };
    }
    return node;
  }

  private step(node: Node): Node {
    this.position++;
    return node;
  }

  private literal(): Node {
    this.position++; // opening quote
    const chars: string[] = [];
    while (this.text[this.position] !== '"') {
      if (this.position >= this.text.length) throw new Error('unterminated literal');
      chars.push(this.char());
    }
    this.position++;
    return { kind: 'literal', chars };
  }

  private charClass(): Node {
    this.position++; // [
    const negated = this.text[this.position] === '^';
    if (negated) this.position++;
    const ranges: Array<[number, number]> = [];
    while (this.text[this.position] !== ']') {
      if (this.position >= this.text.length) throw new Error('unterminated class');
      const low = this.char().codePointAt(0)!;
      if (this.text[this.position] === '-' && this.text[this.position + 1] !== ']') {
        this.position++;
        ranges.push([low, this.char().codePointAt(0)!]);
      } else ranges.push([low, low]);
    }
    this.position++;
    return { kind: 'class', negated, ranges };
  }

  private char(): string {
    const char = String.fromCodePoint(this.text.codePointAt(this.position)!);
    this.position += char.length;
    if (char !== '\\') return char;
    const escaped = this.text[this.position++];
    const simple: Record<string, string> = { n: '\n', r: '\r', t: '\t', '\\': '\\', '"': '"', '[': '[', ']': ']', '-': '-', '^': '^', '/': '/' };
    if (escaped !== undefined && escaped in simple) return simple[escaped]!;
    const digits = escaped === 'x' ? 2 : escaped === 'u' ? 4 : escaped === 'U' ? 8 : 0;
    if (digits === 0) throw new Error(`unknown escape \\${escaped}`);
    const hex = this.text.slice(this.position, this.position + digits);
    if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length !== digits) throw new Error(`bad escape \\${escaped}${hex}`);
    this.position += digits;
    return String.fromCodePoint(Number.parseInt(hex, 16));
  }

  private peek(): string | undefined {
    this.skipSpace();
    return this.text[this.position];
  }

  private skipSpace(): void {
    while (this.text[this.position] === ' ') this.position++;
  }
}
