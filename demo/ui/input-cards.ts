// Form cards in the chat: a running call's server asks the person something (MCP's input_required).
// The form is drawn from the server's schema (text, numbers, yes/no, choices); every word of it is
// the server's, so it reaches the page through textContent only and is labelled as the server's.
// Send answers through `run.respond` (a refusal keeps the form, with the reason); Decline refuses.
import type { InputField, InputRequest, Run, RunEvent } from 'ambi-web/worker';
import { appendItem, button, scrollToEnd } from './render.js';

type Asked = Extract<RunEvent, { type: 'input_requested' }>;
/** A field's input, and how its value is read (undefined: left empty). */
type FieldInput = { element: HTMLInputElement | HTMLSelectElement; read: () => unknown };

/** The form cards of one run, retired when it ends. */
export class InputCards {
  readonly #open = new Set<HTMLLIElement>();

  constructor(
    private readonly chat: HTMLElement,
    private readonly run: Pick<Run, 'respond'>,
  ) {}

  /** A card for the questions of `event`: Send answers them, Decline refuses them all. */
  ask(event: Asked): void {
    const card = appendItem(this.chat, 'approval input', '');
    const from = document.createElement('p');
    from.className = 'from';
    from.textContent = `${event.name} asks, in the words of ${event.untrusted.source.replace(/^mcp:/, 'the MCP server at ')}:`;
    card.append(from);
    const forms = event.requests.map((request) => questionForm(request));
    for (const form of forms) card.append(form.element);
    const problem = document.createElement('p');
    problem.className = 'problem';
    const row = document.createElement('div');
    row.className = 'row';
    const close = (outcome: string) => {
      if (!this.#open.delete(card)) return;
      card.textContent = `${event.name}: ${outcome}`;
    };
    const send = (values: Record<string, unknown> | null, outcome: string) =>
      this.run.respond(event.callId, values).then(
        () => close(outcome),
        (error: unknown) => {
          problem.textContent = `Not sent: ${(error as Error)?.message ?? String(error)}`;
        },
      );
    row.append(
      button('Send', 'approve', () => void send(Object.fromEntries(forms.map((form) => [form.key, form.values()])), 'Answered.')),
      button('Decline', 'ghost deny', () => void send(null, 'Declined.')),
    );
    card.append(problem, row);
    this.#open.add(card);
    scrollToEnd(this.chat);
    row.scrollIntoView({ block: 'nearest' });
  }

  /** The run ended: its cards can no longer be answered. */
  retire(): void {
    for (const card of [...this.#open]) {
      this.#open.delete(card);
      card.textContent = 'Not answered: the run ended.';
    }
  }
}

/** One question's form: its message, a labelled input per field, and the values as filled in. */
function questionForm(request: InputRequest): { key: string; element: HTMLFieldSetElement; values: () => Record<string, unknown> } {
  const element = document.createElement('fieldset');
  const legend = document.createElement('legend');
  legend.textContent = request.message;
  element.append(legend);
  const inputs = Object.entries(request.schema.properties).map(([name, field]) => {
    const label = document.createElement('label');
    const required = request.schema.required?.includes(name) ? ' *' : '';
    label.textContent = `${field.title ?? name}${required} `;
    const input = fieldInput(field);
    label.append(input.element);
    if (field.description) label.title = field.description;
    element.append(label);
    return [name, input] as const;
  });
  const values = () => {
    const filled: Record<string, unknown> = {};
    for (const [name, input] of inputs) {
      const value = input.read();
      // An own property even for a field named `__proto__`.
      if (value !== undefined) Object.defineProperty(filled, name, { value, enumerable: true, writable: true, configurable: true });
    }
    return filled;
  };
  return { key: request.key, element, values };
}

/** The input a field is filled in with: a choice list, a checkbox, a number or a line of text. */
function fieldInput(field: InputField): FieldInput {
  const choices = field.oneOf ?? field.enum?.map((value) => ({ const: value, title: String(value) }));
  if (choices) {
    const select = document.createElement('select');
    select.append(new Option('', ''));
    for (const [index, choice] of choices.entries()) select.append(new Option(choice.title ?? String(choice.const), String(index)));
    return { element: select, read: () => (select.value === '' ? undefined : choices[Number(select.value)]!.const) };
  }
  const input = document.createElement('input');
  if (field.type === 'boolean') {
    input.type = 'checkbox';
    input.checked = field.default === true;
    return { element: input, read: () => input.checked };
  }
  if (field.type === 'number' || field.type === 'integer') {
    input.type = 'number';
    if (field.type === 'integer') input.step = '1';
    if (field.minimum !== undefined) input.min = String(field.minimum);
    if (field.maximum !== undefined) input.max = String(field.maximum);
    if (typeof field.default === 'number') input.value = String(field.default);
    return { element: input, read: () => (input.value === '' ? undefined : Number(input.value)) };
  }
  input.type = field.format === 'email' ? 'email' : 'text';
  if (field.maxLength !== undefined) input.maxLength = field.maxLength;
  if (typeof field.default === 'string') input.value = field.default;
  return { element: input, read: () => (input.value === '' ? undefined : input.value) };
}
