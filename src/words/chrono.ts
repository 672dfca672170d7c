/**
 * @module chrono-node (the natural-language date parser), one locale at a time, loaded on first use. Each
 * locale is a module of its own, built by scripts/vendor.mjs into src/vendor/chrono/ and uploaded beside the
 * Worker (src/vendor/load.ts): nothing of chrono is in the Worker's main module or evaluated at start-up, and a
 * message only pays for the locales its script can be written in. The vendored locales have no "N units ago"
 * parser: a past duration is never a reminder's time.
 */
import type { Chrono, ParsedResult } from "chrono-node";
import { loadOnce } from "../lazy";
import { chronoLocales } from "../vendor/load";
import { rewrite, typedAt } from "./rewrite";

/** The locales tried, English first (docs/telegram.md: "English and the other languages the parser covers"). */
export type Locale = "en" | "de" | "fr" | "es" | "pt" | "it" | "nl" | "ru" | "uk" | "ja";

const load = loadOnce<Locale, Chrono>(chronoLocales);

/**
 * The locales a text may be written in, in the order they are tried. A message carries no language, so the
 * script decides: Cyrillic is Russian or Ukrainian (Ukrainian first when a letter only it has appears), kana
 * or kanji is Japanese, anything else English, then German, French, Spanish, Portuguese, Italian and Dutch.
 * English comes last for the others so that digits-only phrases (`14:30`) still read. Keeping Cyrillic and
 * Japanese out of Latin texts also spares their first parse, which compiles large regular expressions (≈ 20 ms
 * for ru/uk).
 */
function localesFor(text: string): Locale[] {
  if (/[\u0400-\u04FF]/.test(text)) return /[іїєґІЇЄҐ]/.test(text) ? ["uk", "ru", "en"] : ["ru", "uk", "en"];
  if (/[\u3040-\u30FF\u4E00-\u9FFF]/.test(text)) return ["ja", "en"];
  return ["en", "de", "fr", "es", "pt", "it", "nl"];
}

/** chrono's reference: the instant, and the zone's offset then in minutes (an IANA name would be ignored). */
export type ChronoReference = { instant: Date; timezone: number };

/**
 * chrono's readings of `text` in `locale`, each one's place and text as typed where the locale read a rewritten form
 * (`rewrite.ts`: `3 März`, `après-demain`, `в 15 часов`).
 */
async function parseIn(locale: Locale, text: string, ref: ChronoReference): Promise<ParsedResult[]> {
  const seen = rewrite(locale, text, ref);
  // forwardDate: "9am" after nine means tomorrow's, "monday" the coming one.
  const results = (await load(locale)).parse(seen?.text ?? text, ref, { forwardDate: true });
  if (seen) {
    for (const r of results) {
      const [from, to] = [typedAt(seen, r.index, false), typedAt(seen, r.index + r.text.length, true)];
      read.set(r, r.text);
      Object.assign(r, { index: from, text: text.slice(from, to) });
    }
  }
  return results;
}

/** What chrono read of a rewritten text, by result (its `text` is as typed). */
const read = new WeakMap<ParsedResult, string>();

/** The text chrono read for `r`: as typed, or as rewritten for it (`às oito` read as `às 8`, a clock time in digits). */
export function chronoRead(r: ParsedResult): string {
  return read.get(r) ?? r.text;
}

/**
 * Each locale in turn, the `prefer`red one first, with a `parse` of the text in it; the caller stops when it has
 * what it needs, so a locale it never parses is never loaded. `only` keeps to those locales (a date inside a
 * phrase is read in the phrase's language and English).
 */
export function* localeParsers(
  text: string,
  ref: ChronoReference,
  prefer?: Locale,
  only?: readonly Locale[],
): Generator<{ locale: Locale; parse: () => Promise<ParsedResult[]> }> {
  const order = only ?? localesFor(text);
  for (const locale of prefer ? [prefer, ...order.filter((l) => l !== prefer)] : order) {
    yield { locale, parse: () => parseIn(locale, text, ref) };
  }
}
