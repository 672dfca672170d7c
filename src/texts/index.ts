/**
 * @module The replies in the chat's language (docs/telegram.md#language): one table per language, each loaded on
 * first use, so that the English path loads none of the others. `en.ts` is the table the others follow. A `Voice`
 * is what a reply to a person is said with: the table, and the words' description of schedules in that language.
 */
import { loadOnce } from "../lazy";
import { type Lang, langOf, type Speech, speechOf } from "../words";
import type { Texts } from "./en";
import { texts as english } from "./en";

export type { Texts } from "./en";

/** The table of `lang`; one literal specifier each, so that the bundler keeps each behind its own lazy wrapper. */
const load = loadOnce<Lang, Texts>({
  en: async () => english,
  de: async () => (await import("./de")).texts,
  fr: async () => (await import("./fr")).texts,
  es: async () => (await import("./es")).texts,
  pt: async () => (await import("./pt")).texts,
  it: async () => (await import("./it")).texts,
  nl: async () => (await import("./nl")).texts,
  ru: async () => (await import("./ru")).texts,
});

const loaded = new Map<Lang, Texts>([["en", english]]);

/** The table of `lang`, loaded on first use. */
export async function textsOf(lang: Lang): Promise<Texts> {
  const t = await load(lang);
  loaded.set(lang, t);
  return t;
}

/**
 * The table of `lang` if it was loaded, else English's: for what is said inside a synchronous step (a job
 * message's buttons, written in the transaction that delivers it). The chat's object loads its language's table
 * before every call that writes a job's message (`speaking`), so that this finds it.
 */
export const loadedTexts = (lang: Lang): Texts => loaded.get(lang) ?? english;

/** What a reply to a person is said with: its language, the replies' table, and how schedules are described in it. */
export type Voice = { readonly lang: Lang; readonly t: Texts; readonly speech: Speech | null };

/** English, without the schedules' words (the English describer is the default where they are needed). */
export const ENGLISH: Voice = { lang: "en", t: english, speech: null };

/** The voice of a BCP 47 tag or one of the eight (`pt-BR` → pt); English for any other. */
export async function voiceOf(language: string | null | undefined): Promise<Voice> {
  const lang = langOf(language ?? undefined) ?? "en";
  if (lang === "en") return ENGLISH;
  const [t, speech] = await Promise.all([textsOf(lang), speechOf(lang)]);
  return { lang, t, speech };
}
