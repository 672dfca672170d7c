// @ts-check
/**
 * @module A bot entry as Telegram shows it (docs/page.md#what-it-shows): the HTML the API rendered from its Markdown
 * (`html`, by the very rules messages are sent to Telegram with: b, i, s, code, pre, a href, blockquote, and
 * everything else escaped) turned into elements. The HTML is parsed inert (`DOMParser`: nothing runs, nothing
 * loads) and only those elements are rebuilt, each with its own attribute alone (a link's http(s) address, a code
 * block's language); anything else becomes its text. So a message can show markup, never inject it.
 */

const KEPT = new Set(["B", "I", "S", "CODE", "PRE", "A", "BLOCKQUOTE"]);
const LANGUAGE = /^language-[A-Za-z0-9_+#.-]{1,32}$/;

/** Telegram's HTML as elements of this document. @param {string} html @returns {DocumentFragment} */
export function telegramHtml(html) {
  const parsed = new DOMParser().parseFromString(`<!doctype html><body>${html}`, "text/html");
  const out = document.createDocumentFragment();
  for (const node of parsed.body.childNodes) out.append(...rebuilt(node));
  return out;
}

/** A parsed node as what the page shows of it. @param {Node} node @returns {Node[]} */
function rebuilt(node) {
  if (node.nodeType === Node.TEXT_NODE) return [document.createTextNode(node.textContent ?? "")];
  if (node.nodeType !== Node.ELEMENT_NODE) return [];
  const source = /** @type {Element} */ (node);
  const children = [...source.childNodes].flatMap(rebuilt);
  if (!KEPT.has(source.tagName)) return children;
  const el = document.createElement(source.tagName.toLowerCase());
  if (source.tagName === "A") {
    const href = source.getAttribute("href") ?? "";
    if (!/^https?:\/\//i.test(href)) return children;
    el.setAttribute("href", href);
    el.setAttribute("target", "_blank");
    el.setAttribute("rel", "noopener noreferrer nofollow");
  }
  const language = source.tagName === "CODE" ? (source.getAttribute("class") ?? "") : "";
  if (LANGUAGE.test(language)) el.className = language;
  el.append(...children);
  return [el];
}
