// Approval cards in the chat: one per call that waits for the person, retired when its run ends.
// "Always allow" records a standing decision for the tool in this conversation (stored with it).
import type { Run, ToolCall } from 'ambi-web/worker';
import { appendItem, button, scrollToEnd } from './render.js';

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
  ask(call: ToolCall, leafId?: string): void {
    const question = `${leafId ? 'A helper agent asks: ' : ''}Allow ${call.name} ${JSON.stringify(call.arguments)}?`;
    const card = appendItem(this.chat, 'approval', question);
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
