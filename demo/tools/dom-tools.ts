// Tools over the page itself: they run on the main thread, where the DOM is.
import { defineTool, ToolError } from 'ambi-web/worker';
import { isPrivate, readableText } from './page-text.js';

const MAX_TEXT = 4_000;

export const readPage = defineTool({
  name: 'read_page',
  description: 'Read the visible text of the page, or of one section by CSS selector (e.g. "#notes", "#editor").',
  parameters: {
    type: 'object',
    properties: { selector: { type: 'string', description: 'CSS selector; omit for the whole app' } },
    additionalProperties: false,
  },
  readOnly: true,
  // The page shows notes and text that others may have written: what it returns is untrusted, so a
  // call that changes something and is proposed after it is asked about (see note-tools.ts).
  untrusted: true,
  call: ({ selector }) => {
    const root = query(selector ?? '#app-main');
    if (!root) throw new ToolError(`Nothing on the page matches "${selector}"`);
    if (isPrivate(root)) throw new ToolError(`"${selector}" is in a private part of the page: the assistant may not read it`);
    const text = readableText(root as HTMLElement);
    return text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}…` : text;
  },
});

export const fillField = defineTool({
  name: 'fill_field',
  description: 'Type a value into a field of the note editor form. Fields: "title", "body".',
  parameters: {
    type: 'object',
    properties: { field: { type: 'string', enum: ['title', 'body'] }, value: { type: 'string' } },
    required: ['field', 'value'],
    additionalProperties: false,
  },
  idempotent: true,
  // Only fills the form: the person reads it and saves it, or not. Runs after untrusted content too.
  afterUntrusted: 'allow',
  heldArguments: { value: 'allow' },
  call: ({ field, value }) => {
    const input = document.querySelector<HTMLInputElement | HTMLTextAreaElement>(`#editor [name="${field}"]`);
    if (!input) throw new ToolError(`The editor has no field "${field}"`);
    input.value = value;
    input.dispatchEvent(new Event('input', { bubbles: true }));
    return `The ${field} field now reads: ${value}`;
  },
});

export const highlight = defineTool({
  name: 'highlight',
  description: 'Highlight an element of the page for the person, by CSS selector (e.g. a note: "[data-note-id=\\"n-123\\"]").',
  parameters: { type: 'object', properties: { selector: { type: 'string' } }, required: ['selector'], additionalProperties: false },
  idempotent: true,
  // Changes nothing but a highlight: runs after untrusted content too.
  afterUntrusted: 'allow',
  call: ({ selector }) => {
    const elements = queryAll(selector);
    if (elements.length === 0) throw new ToolError(`Nothing on the page matches "${selector}"`);
    for (const element of elements) element.classList.add('highlighted');
    elements[0]?.scrollIntoView({ block: 'nearest' });
    return `Highlighted ${elements.length} element(s)`;
  },
});

/** The first element `selector` matches; a selector that does not parse is the model's mistake, told as such. */
function query(selector: string): Element | null {
  try {
    return document.querySelector(selector);
  } catch {
    throw invalidSelector(selector);
  }
}

/** Every element `selector` matches (same errors as `query`). */
function queryAll(selector: string): Element[] {
  try {
    return [...document.querySelectorAll(selector)];
  } catch {
    throw invalidSelector(selector);
  }
}

const invalidSelector = (selector: string) => new ToolError(`"${selector}" is not a valid CSS selector`);
