// @ts-check
/**
 * @module The page's words in the open chat's language. One table per language under texts/, English's the shape
 * and loaded with the page; another is loaded the first time a chat speaks it (an English page loads none). `t()`
 * is the current table, `locale()` the Intl locale of the dates the page writes itself. `useLanguage` switches:
 * it sets the document's `lang`, writes the static labels of index.html from the table (an element names its key
 * in `data-t` for its text, `data-t-placeholder` or `data-t-aria-label` for those attributes), and runs what the
 * modules registered with `onLanguage` to write again what they show. Nothing here touches the DOM but a switch,
 * so the pure modules (time.js, tested in Node) may read the table.
 */
import en from "./texts/en.js";

/** @typedef {typeof en} Texts */
/** @typedef {"en" | "de" | "fr" | "es" | "pt" | "it" | "nl" | "ru"} Lang */

/** The tables other than English's, each loaded on first use (static paths: checked, and cached by the browser). */
const TABLES = /** @type {Record<Exclude<Lang, "en">, () => Promise<{ default: Texts }>>} */ ({
  de: () => import("./texts/de.js"),
  fr: () => import("./texts/fr.js"),
  es: () => import("./texts/es.js"),
  pt: () => import("./texts/pt.js"),
  it: () => import("./texts/it.js"),
  nl: () => import("./texts/nl.js"),
  ru: () => import("./texts/ru.js"),
});

/** Each language's Intl locale: English's day-before-month as the page always wrote it; Brazilian Portuguese. */
const LOCALES = /** @type {const} */ ({ en: "en-GB", de: "de", fr: "fr", es: "es", pt: "pt-BR", it: "it", nl: "nl", ru: "ru" });

/** @type {Lang} */
let lang = "en";
/** @type {Texts} */
let current = en;
/** The language last asked for: a slower load that an earlier switch started does not win over it. */
let wanted = /** @type {Lang} */ ("en");
/** @type {(() => void)[]} */
const listeners = [];

/** The current table. */
export const t = () => current;

/** The current language. */
export const language = () => lang;

/** The Intl locale of the current language. */
export const locale = () => LOCALES[lang];

/** A status as the API names it (`delivered`, `failed`…) in the current language; one the table lacks as it is. @param {string} status */
export function statusWord(status) {
  const words = /** @type {Record<string, string>} */ (current.statuses);
  return Object.hasOwn(words, status) ? /** @type {string} */ (words[status]) : status;
}

/** @param {unknown} value @returns {value is Lang} */
const isLang = (value) => typeof value === "string" && Object.hasOwn(LOCALES, value);

/** Runs `write` after every switch, to write again in the new language what a module shows. @param {() => void} write */
export function onLanguage(write) {
  listeners.push(write);
}

/**
 * Switches the page to `next` (one of the eight; anything else is English), loading its table on first use.
 * Resolves once what is on screen is written in it; a table that cannot be loaded leaves the language as it was.
 * @param {unknown} next
 */
export async function useLanguage(next) {
  const to = isLang(next) ? next : "en";
  wanted = to;
  if (to === lang) return;
  let table = en;
  if (to !== "en") {
    try {
      table = (await TABLES[to]()).default;
    } catch {
      return;
    }
  }
  if (wanted !== to) return;
  lang = to;
  current = table;
  document.documentElement.lang = to === "pt" ? "pt-BR" : to;
  translate(document);
  for (const write of listeners) write();
}

/** The attributes a static label may take from the table, each as `data-t-<name>`. */
const ATTRIBUTES = ["placeholder", "aria-label"];

/** The table's string for `key`, or null when it has none (a key index.html names and the table lacks). @param {string | undefined} key */
function stringOf(key) {
  const value = key === undefined ? undefined : /** @type {Record<string, unknown>} */ (current)[key];
  return typeof value === "string" ? value : null;
}

/** `text` as nodes, its `backticked` parts as code. @param {string} text @returns {(string | Node)[]} */
export function withCode(text) {
  return text.split("`").map((part, i) => {
    if (i % 2 === 0) return part;
    const code = document.createElement("code");
    code.textContent = part;
    return code;
  });
}

/** Writes the static labels under `root` from the current table. @param {ParentNode} root */
export function translate(root) {
  for (const el of root.querySelectorAll("[data-t]")) {
    const text = stringOf(/** @type {HTMLElement} */ (el).dataset.t);
    if (text !== null) el.replaceChildren(...withCode(text));
  }
  for (const name of ATTRIBUTES) {
    for (const el of root.querySelectorAll(`[data-t-${name}]`)) {
      const text = stringOf(el.getAttribute(`data-t-${name}`) ?? undefined);
      if (text !== null) el.setAttribute(name, text);
    }
  }
}
