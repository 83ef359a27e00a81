// The page's own tools: a shopping list in the DOM. The model adds to it freely; emptying it needs the person's approval.
import { defineTool, type Tool } from 'ambi-web/worker';

export function listTools(list: HTMLUListElement): Tool[] {
  const items = () => [...list.querySelectorAll('li')].map((li) => li.textContent ?? '');
  return [
    defineTool({
      name: 'add_item',
      description: 'Add an item to the shopping list on the page',
      parameters: { type: 'object', properties: { item: { type: 'string', minLength: 1 } }, required: ['item'], additionalProperties: false },
      idempotent: false,
      call: ({ item }) => {
        const li = document.createElement('li');
        li.textContent = item;
        list.append(li);
        return { items: items() };
      },
    }),
    defineTool({
      name: 'clear_list',
      description: 'Remove every item from the shopping list',
      parameters: { type: 'object', properties: {}, additionalProperties: false },
      idempotent: false,
      needsApproval: true,
      call: () => {
        const removed = items();
        list.replaceChildren();
        return { removed };
      },
    }),
  ];
}

const STORED_LIST = 'ambi-web-ai-sdk-example-list';

/** The list as the page left it (so a reload mid-approval finds what the call would clear), saved on every change. */
export function keepListAcrossReloads(list: HTMLUListElement): void {
  const saved = JSON.parse(localStorage.getItem(STORED_LIST) ?? '[]') as unknown;
  for (const item of Array.isArray(saved) ? saved : []) list.append(Object.assign(document.createElement('li'), { textContent: String(item) }));
  new MutationObserver(() => localStorage.setItem(STORED_LIST, JSON.stringify([...list.children].map((li) => li.textContent)))).observe(list, {
    childList: true,
  });
}
