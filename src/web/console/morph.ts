// Updating a card in place: a card is re-rendered on every update (status, screenshot, screen text), and replacing its
// whole DOM pulled a link or button out from under a click in progress (the press lands on the old node, the release
// on the new one, and the browser fires no click). Nodes that are already equal stay; only what changed is replaced.

/**
 * Containers whose children are compared one by one. Anything else (buttons and links with their listeners, images,
 * preformatted text) is kept when equal and replaced whole when not, so a kept node never carries a listener whose
 * closure belongs to an older render (a button's value is in its `data-value`, so equal means the same action).
 */
const RECURSE = new Set(['ARTICLE', 'HEADER', 'DIV', 'SECTION', 'UL', 'OL', 'LI', 'P', 'H3']);

/** Makes `old` show what `fresh` shows, keeping every equal node; returns the node now in the document. */
export function morph(old: Element, fresh: Element): Element {
  if (old.isEqualNode(fresh)) return old;
  if (old.tagName !== fresh.tagName || !RECURSE.has(old.tagName)) {
    old.replaceWith(fresh);
    return fresh;
  }
  for (const a of [...old.attributes]) if (!fresh.hasAttribute(a.name)) old.removeAttribute(a.name);
  for (const a of [...fresh.attributes]) if (old.getAttribute(a.name) !== a.value) old.setAttribute(a.name, a.value);
  const before = [...old.childNodes];
  const after = [...fresh.childNodes];
  after.forEach((next, i) => {
    const prev = before[i];
    if (!prev) old.append(next);
    else if (prev instanceof Element && next instanceof Element) morph(prev, next);
    else if (!prev.isEqualNode(next)) prev.replaceWith(next);
  });
  for (const extra of before.slice(after.length)) extra.remove();
  return old;
}
