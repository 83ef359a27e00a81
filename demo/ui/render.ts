// Every piece of model or tool text reaches the page through textContent: never parsed as HTML.

/** Append a list item with `text` as plain text, and show it (the list scrolls to its end). */
export function appendItem(list: HTMLElement, className: string, text: string): HTMLLIElement {
  const item = document.createElement('li');
  item.className = className;
  item.textContent = text;
  list.append(item);
  scrollToEnd(list);
  return item;
}

/** Scroll `list` to its end: what was just added (an approval card's buttons, an answer's last line) is in view. */
export function scrollToEnd(list: HTMLElement): void {
  list.scrollTop = list.scrollHeight;
}

/** How close to its end a list counts as "at the end" (a person reading older lines has scrolled further up). */
const AT_END_PX = 48;

/**
 * Make a change that grows the list's last item (a streamed answer), keeping the list at its end
 * if it was there: the answer's last lines stay in view, and a person who scrolled up to read is
 * not pulled down.
 */
export function growLast(list: HTMLElement, change: () => void): void {
  const atEnd = list.scrollHeight - list.scrollTop - list.clientHeight <= AT_END_PX;
  change();
  if (atEnd) scrollToEnd(list);
}

/** A button with a text label. */
export function button(label: string, className: string, onClick: () => void): HTMLButtonElement {
  const element = document.createElement('button');
  element.type = 'button';
  element.className = className;
  element.textContent = label;
  element.addEventListener('click', onClick);
  return element;
}

/** A run error in words a person can act on. */
export function describeError(error: { code: string; message: string }): string {
  switch (error.code) {
    case 'aborted':
      return 'Stopped.';
    case 'max_iterations':
      return 'The assistant took too many steps and was stopped.';
    case 'network_error':
      return `Could not reach the model endpoint. Check the base URL in Settings. (${error.message})`;
    case 'http_error':
      return `The model endpoint refused the request: ${error.message}`;
    case 'worker_crashed':
      return `The assistant's worker crashed: ${error.message}`;
    case 'conversation_busy':
      return 'This conversation is running in another tab.';
    case 'nothing_to_resume':
      return 'Nothing left to resume: another tab finished it.';
    default:
      return `Something went wrong (${error.code}): ${error.message}`;
  }
}

/** Any thrown value as a code and a message (an ambi-web error keeps its code, also from a worker). */
export function asProblem(error: unknown): { code: string; message: string } {
  const code = (error as { code?: unknown } | null)?.code;
  return { code: typeof code === 'string' ? code : 'error', message: error instanceof Error ? error.message : String(error) };
}
