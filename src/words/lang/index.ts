/**
 * @module The phrase tables, each loaded on first use (issue 24 item 7: English needs none of the others),
 * and which of them a text may be written in.
 */
import { loadOnce } from "../../lazy";
import type { Lang, PhraseTable } from "./types";

export { DAY_PARTS } from "./day-parts";
export type { DayPart, Lang, Multiple, PhraseTable, Unit, Words } from "./types";
export { MULTIPLES } from "./types";

export const LANGS: readonly Lang[] = ["en", "de", "fr", "es", "pt", "it", "nl", "ru"];

/** One language's table; one literal specifier each, so that the bundler keeps each behind its own lazy wrapper. */
export const tableOf = loadOnce<Lang, PhraseTable>({
  en: async () => (await import("./en")).table,
  de: async () => (await import("./de")).table,
  fr: async () => (await import("./fr")).table,
  es: async () => (await import("./es")).table,
  pt: async () => (await import("./pt")).table,
  it: async () => (await import("./it")).table,
  nl: async () => (await import("./nl")).table,
  ru: async () => (await import("./ru")).table,
});

/** The table language of a BCP 47 tag (`de-AT` → `de`), or null when there is none for it. */
export function langOf(tag: string | undefined): Lang | null {
  const primary = (tag ?? "").toLowerCase().split(/[-_]/)[0] ?? "";
  return (LANGS as readonly string[]).includes(primary) ? (primary as Lang) : null;
}

/**
 * The languages a text may be written in, in the order they are tried: the preferred one, then by script:
 * Cyrillic is Russian; Latin letters English first, then the others; another script none.
 */
export function langsFor(text: string, prefer: Lang | null): Lang[] {
  const script: Lang[] = /[\u0400-\u04FF]/.test(text) ? ["ru"] : /[\u3040-\u30FF\u4E00-\u9FFF]/.test(text) ? [] : ["en", "de", "fr", "es", "pt", "it", "nl"];
  return prefer && (script.includes(prefer) || !/\p{L}/u.test(text)) ? [prefer, ...script.filter((l) => l !== prefer)] : script;
}
