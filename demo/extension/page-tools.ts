// The tools the content script serves: they run in the tab, on its DOM. What they return is the
// page's words, so tab tools are untrusted; the two that act ask the person first.
import { defineTool, ToolError } from 'ambi-web/extension';

const MAX_TEXT = 4_000;

/** The element `selector` names, or a ToolError the model can act on (a bad selector, nothing found). */
function find(selector: string): Element {
  let element: Element | null;
  try {
    element = document.querySelector(selector);
  } catch {
    throw new ToolError(`"${selector}" is not a valid CSS selector`);
  }
  if (!element) throw new ToolError(`Nothing on the page matches "${selector}"`);
  return element;
}

/** Visible text, whitespace collapsed, cut to `max` characters. */
function textOf(element: Element, max: number): string {
  // biome-ignore lint/performance/useDomNodeTextContent: what a person sees, without the text of scripts and styles
  const text = ((element as HTMLElement).innerText ?? element.textContent ?? '').replace(/\s+/g, ' ').trim();
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

export const readPage = defineTool({
  name: 'read_page',
  description: "Read the page in the person's tab: its title, address and text (or one part of it, by CSS selector).",
  parameters: {
    type: 'object',
    properties: {
      selector: { type: 'string', description: 'A CSS selector; default: the whole page' },
      maxChars: { type: 'integer', minimum: 100, maximum: 20_000, description: `Default ${MAX_TEXT}` },
    },
    additionalProperties: false,
  },
  readOnly: true,
  call: ({ selector, maxChars }) => ({
    title: document.title,
    url: location.href,
    text: textOf(selector ? find(selector) : document.body, maxChars ?? MAX_TEXT),
  }),
});

export const findLinks = defineTool({
  name: 'find_links',
  description: 'List the links on the page (their text and address), optionally only those whose text or address contains a word.',
  parameters: {
    type: 'object',
    properties: {
      contains: { type: 'string' },
      limit: { type: 'integer', minimum: 1, maximum: 100, description: 'Default 20' },
    },
    additionalProperties: false,
  },
  readOnly: true,
  call: ({ contains, limit }) => {
    const word = contains?.toLowerCase();
    const links = [...document.querySelectorAll('a[href]')].map((a) => ({ text: textOf(a, 120), href: (a as HTMLAnchorElement).href }));
    return links.filter((link) => !word || `${link.text} ${link.href}`.toLowerCase().includes(word)).slice(0, limit ?? 20);
  },
});

export const fillField = defineTool({
  name: 'fill_field',
  description: 'Type a value into a form field of the page (an input, a text area or a select), by CSS selector.',
  parameters: {
    type: 'object',
    properties: { selector: { type: 'string' }, value: { type: 'string', maxLength: 10_000 } },
    required: ['selector', 'value'],
    additionalProperties: false,
  },
  idempotent: true,
  // It changes the page: the person decides (see the README of the extension guide on untrusted content).
  needsApproval: true,
  call: ({ selector, value }) => {
    const field = find(selector);
    if (!(field instanceof HTMLInputElement || field instanceof HTMLTextAreaElement || field instanceof HTMLSelectElement)) {
      throw new ToolError(`"${selector}" is a <${field.tagName.toLowerCase()}>, not a form field`);
    }
    if (field instanceof HTMLInputElement && field.type === 'password') throw new ToolError('Password fields are never filled by the assistant');
    field.value = value;
    // What a person typing causes: the page's own handlers see the change.
    field.dispatchEvent(new Event('input', { bubbles: true }));
    field.dispatchEvent(new Event('change', { bubbles: true }));
    return { filled: selector, value: field.value };
  },
});

export const click = defineTool({
  name: 'click',
  description: 'Click an element of the page (a button, a link), by CSS selector.',
  parameters: { type: 'object', properties: { selector: { type: 'string' } }, required: ['selector'], additionalProperties: false },
  idempotent: false,
  needsApproval: true,
  call: ({ selector }) => {
    const element = find(selector);
    if (!(element instanceof HTMLElement)) throw new ToolError(`"${selector}" cannot be clicked`);
    element.click();
    return { clicked: selector, text: textOf(element, 120) };
  },
});
