// @ts-check
/** @module Small DOM helpers: elements by id (throwing when the page lacks one) and elements built from parts. */

/**
 * The element with `id`; the page's HTML and its modules go together, so a missing one is a bug.
 * @template {HTMLElement} T
 * @param {string} id
 * @returns {T}
 */
export function byId(id) {
  const el = document.getElementById(id);
  if (!el) throw new Error(`The page has no #${id}.`);
  return /** @type {T} */ (el);
}

/**
 * An element with attributes (`class`, `aria-*`, `data-*`, properties such as `type`) and children (text or nodes).
 * @param {string} tag
 * @param {Record<string, string | boolean | undefined>} [attrs]
 * @param {(Node | string | null | undefined | false)[]} [children]
 * @returns {HTMLElement}
 */
export function h(tag, attrs = {}, children = []) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === false) continue;
    el.setAttribute(name, value === true ? "" : value);
  }
  for (const child of children) if (child !== null && child !== undefined && child !== false) el.append(child);
  return el;
}

/**
 * What a failure says, for the page to show: an API error's sentence, or the thrown value as text.
 * @param {unknown} e
 */
export const sentence = (e) => (e instanceof Error ? e.message : String(e));
