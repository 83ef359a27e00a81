// GBNF (llama.cpp's grammar format) text: literals, character classes, and a rule set.

/** A GBNF string literal matching exactly `text`. */
export function literal(text: string): string {
  let out = '"';
  for (const char of text) {
    if (char === '"') out += '\\"';
    else if (char === '\\') out += '\\\\';
    else if (char === '\n') out += '\\n';
    else if (char === '\r') out += '\\r';
    else if (char === '\t') out += '\\t';
    else out += isControl(char) ? hexEscape(char) : char;
  }
  return `${out}"`;
}

/** A GBNF character class of these characters (`negated`: any other character). */
export function charClass(chars: Iterable<string>, negated = false): string {
  let out = negated ? '[^' : '[';
  // Everything that could read as class syntax, or is invisible, is written as \xHH.
  for (const char of chars) out += isControl(char) || '\\]-^["'.includes(char) ? hexEscape(char) : char;
  return `${out}]`;
}

function isControl(char: string): boolean {
  const code = char.codePointAt(0)!;
  return code < 0x20 || code === 0x7f;
}

function hexEscape(char: string): string {
  return `\\x${char.codePointAt(0)!.toString(16).toUpperCase().padStart(2, '0')}`;
}

/** A rule name (letters, digits, `-`) made from any text. */
export function ruleName(hint: string): string {
  const name = hint
    .replace(/[^a-zA-Z0-9-]+/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '');
  return name === '' ? 'r' : name;
}

/** An ordered set of GBNF rules with unique names; a body already present is reused under its first name. */
export class GbnfRules {
  private readonly bodies = new Map<string, string>();
  private readonly byBody = new Map<string, string>();

  /** Add `name ::= body` under a fresh name derived from `hint`; return the name used. */
  add(hint: string, body: string): string {
    const known = this.byBody.get(body);
    if (known) return known;
    const base = ruleName(hint);
    let name = base;
    for (let n = 2; this.bodies.has(name); n++) name = `${base}-${n}`;
    this.bodies.set(name, body);
    this.byBody.set(body, name);
    return name;
  }

  /** Define a rule under exactly this name, once (shared rules such as `json-string`). */
  define(name: string, body: string): string {
    if (!this.bodies.has(name)) {
      this.bodies.set(name, body);
      this.byBody.set(body, name);
    }
    return name;
  }

  has(name: string): boolean {
    return this.bodies.has(name);
  }

  /** The grammar text: `root ::= rootBody`, then every rule. */
  grammar(rootBody: string): string {
    const lines = [`root ::= ${rootBody}`];
    for (const [name, body] of this.bodies) lines.push(`${name} ::= ${body}`);
    return `${lines.join('\n')}\n`;
  }
}
