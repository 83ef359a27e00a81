// Approval cards in the chat: one per call that waits for the person, retired when its run ends.
// "Always allow" records a standing decision for the tool in this conversation (stored with it).
// A call proposed after the model read untrusted content says what it read (results, tool
// descriptions someone else wrote, its own replies after those), and which of its arguments came
// from there (those are marked in the call as shown). In hold mode, a call that carries held
// values says which argument carries which (`to` ← $1, page text).
import type { Run, ToolCall, UntrustedContext, UntrustedSource } from 'ambi-web/worker';
import { appendItem, button, scrollToEnd } from './render.js';

/** What each untrusted source is, in the person's words. */
const SOURCE_LABELS: Record<string, string> = {
  read_page: 'page text',
  find_links: "the page's links",
  search_notes: 'notes',
  spawn_leaf: "a helper agent's answer",
};
const labelOf = (name: string) => SOURCE_LABELS[name] ?? `${name}'s result`;
/** The most tool names a card lists for one author of tool descriptions (an MCP server may offer dozens). */
const TOOLS_LISTED = 4;

/** One source in the person's words: a result, the tool descriptions of someone other than the app, or the model's own replies. */
function sourceWords(source: UntrustedSource): string {
  if (source.kind === 'reply') return 'its own earlier replies, written after reading such content';
  if (source.kind !== 'definitions') return `${source.name} (${labelOf(source.name)})`;
  const tools = source.tools ?? [];
  const listed = tools.length > TOOLS_LISTED ? `${tools.slice(0, TOOLS_LISTED).join(', ')} and ${tools.length - TOOLS_LISTED} more` : tools.join(', ');
  return `the tool descriptions of ${authorWords(source.name)}${listed ? ` (${listed})` : ''}`;
}

/** Who wrote tool descriptions, from the source's name (`tab:<id>`, `mcp:<url>`, `webmcp:<origin>`, or an app's own name). */
function authorWords(name: string): string {
  const [scheme, ...rest] = name.split(':');
  const where = rest.join(':');
  if (scheme === 'tab' && where) return `tab ${where}`;
  if (scheme === 'mcp' && where) return `the MCP server at ${where}`;
  if (scheme === 'webmcp' && where) return `the page at ${where}`;
  return name;
}

interface OpenCard {
  callId: string;
  leafId: string | undefined;
  card: HTMLLIElement;
  question: string;
}

/** The approval cards of one run, its leaves' included (the run answers for them all). */
export class ApprovalCards {
  // A list, not a map by id: should two waiting calls share an id, each card still ends.
  readonly #open: OpenCard[] = [];

  constructor(
    private readonly chat: HTMLElement,
    private readonly run: Run,
  ) {}

  /** A card for a call that waits: Approve or Deny answers it through the run. */
  ask(call: ToolCall, leafId?: string, untrusted?: UntrustedContext): void {
    const question = `${leafId ? 'A helper agent asks: ' : ''}Allow ${call.name} ${JSON.stringify(call.arguments)}?`;
    const card = appendItem(this.chat, 'approval', '');
    card.append(...questionParts(question, call, untrusted));
    if (typeof call.target?.url === 'string') card.append(pageLine(call.target.url));
    if (untrusted) card.append(untrustedContext(untrusted));
    card.dataset.callId = call.id;
    const open: OpenCard = { callId: call.id, leafId, card, question };
    this.#open.push(open);
    const answer = (approved: boolean, always = false) => {
      const outcome = approved ? (always ? `Approved, and always allowed for ${call.name} in this conversation.` : 'Approved.') : 'Denied.';
      if (!this.#close(open, outcome)) return;
      if (approved) this.run.approve(call.id, { always });
      else this.run.deny(call.id, 'The person declined');
    };
    const row = document.createElement('div');
    row.className = 'row';
    row.append(
      button('Approve', 'approve', () => answer(true)),
      button('Always allow', 'ghost always', () => answer(true, true)),
      button('Deny', 'ghost deny', () => answer(false)),
    );
    card.append(row);
    // The buttons, added after the card, are what the person must reach: bring them into view, in
    // the chat and, on a narrow screen where the chat sits below the notes, in the window.
    scrollToEnd(this.chat);
    row.scrollIntoView({ block: 'nearest' });
  }

  /** Whether a card waits for the person. */
  get waiting(): boolean {
    return this.#open.length > 0;
  }

  /** A leaf's run ended (`leafId`), or the whole run did: its cards can no longer be answered. */
  retire(leafId?: string): void {
    for (const open of [...this.#open]) {
      if (leafId === undefined || open.leafId === leafId) this.#close(open, 'Not answered: the run ended.');
    }
  }

  /** Say the outcome on the card and drop its buttons; false if it was already closed. */
  #close(open: OpenCard, outcome: string): boolean {
    const at = this.#open.indexOf(open);
    if (at < 0) return false;
    this.#open.splice(at, 1);
    open.card.textContent = `${open.question} ${outcome}`;
    return true;
  }
}

/**
 * The question as text nodes, the value of each top-level argument that came from untrusted
 * content, or carries a held value, in a <mark> (the text reads the same: the JSON of the arguments).
 */
function questionParts(question: string, call: ToolCall, untrusted: UntrustedContext | undefined): Node[] {
  const args = call.arguments;
  const topOf = (entries: ReadonlyArray<{ path: string }> | undefined) =>
    (entries ?? []).map((entry) => entry.path.split('/')[1]).filter((key) => key !== undefined);
  const held = new Set(topOf(untrusted?.held));
  const flagged = new Set([...topOf(untrusted?.flows), ...held]);
  if (flagged.size === 0 || typeof args !== 'object' || args === null || Array.isArray(args)) return [document.createTextNode(question)];
  const json = JSON.stringify(args);
  const at = question.indexOf(json);
  const parts: Node[] = [document.createTextNode(`${question.slice(0, at)}{`)];
  Object.entries(args).forEach(([key, value], i) => {
    const valueText = JSON.stringify(value);
    if (valueText === undefined) return;
    parts.push(document.createTextNode(`${i > 0 ? ',' : ''}${JSON.stringify(key)}:`));
    const token = key.replaceAll('~', '~0').replaceAll('/', '~1');
    if (flagged.has(token)) {
      const mark = document.createElement('mark');
      mark.className = held.has(token) ? 'held' : 'flow';
      mark.textContent = valueText;
      parts.push(mark);
    } else parts.push(document.createTextNode(valueText));
  });
  parts.push(document.createTextNode(`}${question.slice(at + json.length)}`));
  return parts;
}

/** A tab call's page (its target, named when the call was proposed): it runs there or not at all. Its address, not its title: the page chooses that. */
function pageLine(url: string): HTMLElement {
  const line = document.createElement('p');
  line.className = 'target';
  line.textContent = `On the page at ${url}, and nowhere else`;
  return line;
}

/**
 * "Proposed after the model read: read_page (page text)", then one line per argument found in what
 * it read (results, tool descriptions someone else wrote, or its own replies); or, for a call that
 * carries held values (the model read none of it), one line per argument that carries one.
 */
function untrustedContext(untrusted: UntrustedContext): HTMLElement {
  const box = document.createElement('div');
  box.className = 'untrusted';
  const read = document.createElement('p');
  const lead = untrusted.flows ? 'Proposed after the model read' : 'Carries, unread by the model, what these returned';
  read.textContent = `${lead}: ${[...new Set(untrusted.sources.map(sourceWords))].join(', ')}`;
  box.append(read);
  if (untrusted.held && untrusted.held.length > 0) {
    const held = document.createElement('ul');
    held.className = 'held';
    for (const entry of untrusted.held) {
      const item = document.createElement('li');
      const path = document.createElement('code');
      path.textContent = entry.path.slice(1) || '(the arguments)';
      item.append(path, ` carries ${entry.id}, from the ${labelOf(entry.from)}`);
      held.append(item);
    }
    box.append(held);
  }
  if (untrusted.flows && untrusted.flows.length > 0) {
    const flows = document.createElement('ul');
    flows.className = 'flows';
    for (const flow of untrusted.flows) {
      const source = untrusted.sources.find((s) => s.kind === undefined && s.callId === flow.from);
      const item = document.createElement('li');
      const path = document.createElement('code');
      path.textContent = flow.path.slice(1) || '(the arguments)';
      item.append(path, ` appears in the ${source ? labelOf(source.name) : 'content it read'}`);
      flows.append(item);
    }
    box.append(flows);
  }
  return box;
}
