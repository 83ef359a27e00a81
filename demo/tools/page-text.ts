// What the DOM tools may read of the page: never a password field, never a part the app marks private.

/** The mark an app puts on what no tool may read (the demo's Settings dialog, which holds the API key). */
const PRIVATE = '[data-private]';

/** Fields whose typed value the model may read: not choices, and never passwords or hidden inputs (tokens live there). */
const READABLE_FIELDS = 'input:not([type=radio]):not([type=checkbox]):not([type=password]):not([type=hidden]), textarea';

/** Whether `element` lies in a part of the page marked private. */
export function isPrivate(element: Element): boolean {
  return element.closest(PRIVATE) !== null;
}

/** The rendered text of `root` without its private parts, then the values typed in its readable fields. */
export function readableText(root: HTMLElement): string {
  const fields = [...root.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>(READABLE_FIELDS)]
    .filter((field) => field.value && !isPrivate(field))
    .map((field) => `[${field.name || field.id}]\n${field.value}`);
  return [
    renderedText(root)
      .replace(/\n{3,}/g, '\n\n')
      .trim(),
    ...fields,
  ].join('\n');
}

/**
 * innerText cannot leave a part out, so around private parts the text is read piece by piece:
 * each child with no private part inside gets its own innerText. A child that is not rendered
 * is skipped there, as innerText skips it (its own innerText would be all its text).
 */
function renderedText(element: HTMLElement): string {
  // biome-ignore lint/performance/useDomNodeTextContent: the rendered text is wanted (hidden parts left out), as a person sees it
  if (!element.querySelector(PRIVATE)) return element.innerText;
  const pieces: string[] = [];
  for (const node of element.childNodes) {
    if (node instanceof HTMLElement) {
      if (!node.matches(PRIVATE) && node.checkVisibility()) pieces.push(renderedText(node));
    } else if (node.nodeType === Node.TEXT_NODE) {
      pieces.push((node.textContent ?? '').replace(/\s+/g, ' ').trim());
    }
  }
  return pieces.filter(Boolean).join('\n');
}
