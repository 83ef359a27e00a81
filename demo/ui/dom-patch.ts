// Redraw without replacing: a running timeline redraws four times a second, and a node replaced
// under the pointer loses its tooltip, a click whose press and release land on two nodes is no
// click, and a selection in it is gone. So a redraw builds the new nodes, then changes the ones
// on the page to match them, keeping every node that stays.

/** Make `into`'s attributes and children match `fresh`'s, keeping the nodes that stay (`fresh` is discarded). */
export function patchElement(into: Element, fresh: Element): void {
  for (const { name } of [...into.attributes]) if (name !== 'style' && !fresh.hasAttribute(name)) into.removeAttribute(name);
  for (const { name, value } of [...fresh.attributes]) if (name !== 'style' && into.getAttribute(name) !== value) into.setAttribute(name, value);
  if (into instanceof HTMLElement && fresh instanceof HTMLElement) patchStyle(into.style, fresh.style);
  patchChildren(into, [...fresh.childNodes]);
}

/** Styles one property at a time: a strict CSP (`style-src 'self'`) refuses a style attribute set whole, not the CSSOM. */
function patchStyle(into: CSSStyleDeclaration, fresh: CSSStyleDeclaration): void {
  for (const name of [...into]) if (fresh.getPropertyValue(name) === '') into.removeProperty(name);
  for (const name of [...fresh]) {
    const value = fresh.getPropertyValue(name);
    if (into.getPropertyValue(name) !== value) into.setProperty(name, value, fresh.getPropertyPriority(name));
  }
}

/** Make `parent`'s children match `fresh`, position by position: a node of the same kind and tag is patched, another one takes its place. */
export function patchChildren(parent: Element, fresh: readonly Node[]): void {
  fresh.forEach((node, at) => {
    const have = parent.childNodes[at];
    if (have === undefined) parent.append(node);
    else if (have.nodeName !== node.nodeName) parent.replaceChild(node, have);
    else if (have instanceof Element) patchElement(have, node as Element);
    else if (have.nodeValue !== node.nodeValue) have.nodeValue = node.nodeValue;
  });
  while (parent.childNodes.length > fresh.length) parent.lastChild!.remove();
}

/**
 * Make `parent`'s children the rows `fresh`, matched by `data-key` (a row that moves keeps its
 * node): a row already there is patched, a new one inserted, one gone removed.
 */
export function patchKeyedRows(parent: Element, fresh: readonly HTMLElement[], key: string): void {
  const wanted = new Set(fresh.map((row) => row.dataset[key]));
  const kept = new Map<string | undefined, HTMLElement>();
  for (const row of [...parent.children] as HTMLElement[]) {
    if (wanted.has(row.dataset[key]) && !kept.has(row.dataset[key])) kept.set(row.dataset[key], row);
    else row.remove();
  }
  fresh.forEach((row, at) => {
    const old = kept.get(row.dataset[key]);
    kept.delete(row.dataset[key]); // two rows with one key: the second is drawn anew
    const node = old ?? row;
    if (old) patchElement(old, row);
    if (parent.children[at] !== node) parent.insertBefore(node, parent.children[at] ?? null);
  });
}
