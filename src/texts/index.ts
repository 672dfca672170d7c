/**
 * @module The replies in the chat's language (docs/telegram.md#language): one table per language, each loaded on
 * first use, so that the English path loads none of the others. `en.ts` is the table the others follow.
 */
import { loadOnce } from "../lazy";
import type { Lang } from "../words";
import type { Texts } from "./en";

export type { Texts } from "./en";

/** The table of `lang`; one literal specifier each, so that the bundler keeps each behind its own lazy wrapper. */
export const textsOf = loadOnce<Lang, Texts>({
  en: async () => (await import("./en")).texts,
  de: async () => (await import("./de")).texts,
  fr: async () => (await import("./fr")).texts,
  es: async () => (await import("./es")).texts,
  pt: async () => (await import("./pt")).texts,
  it: async () => (await import("./it")).texts,
  nl: async () => (await import("./nl")).texts,
  ru: async () => (await import("./ru")).texts,
});
