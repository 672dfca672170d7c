/**
 * @module chrono-node (the natural-language date parser), one locale at a time, loaded on first use. Each
 * locale's entry point is imported with `import()`, never the package index (all 16 locales, +15 ms at
 * import): wrangler inlines these imports into the one bundle, so nothing of chrono is evaluated at start-up,
 * and a message only pays for the locales its script can be written in.
 */
import type { Chrono, ParsedResult } from "chrono-node";

/** The locales tried, English first (DESIGN §6: "English and the other languages the parser covers"). */
export type Locale = "en" | "de" | "fr" | "es" | "pt" | "ru" | "uk" | "ja";

const loaded = new Map<Locale, Chrono>();

async function load(locale: Locale): Promise<Chrono> {
  let chrono = loaded.get(locale);
  if (!chrono) {
    // One literal specifier per locale, so that the bundler sees (and inlines) each of them.
    switch (locale) {
      case "en":
        chrono = (await import("chrono-node/en")).casual;
        break;
      case "de":
        chrono = (await import("chrono-node/de")).casual;
        break;
      case "fr":
        chrono = (await import("chrono-node/fr")).casual;
        break;
      case "es":
        chrono = (await import("chrono-node/es")).casual;
        break;
      case "pt":
        chrono = (await import("chrono-node/pt")).casual;
        break;
      case "ru":
        chrono = (await import("chrono-node/ru")).casual;
        break;
      case "uk":
        chrono = (await import("chrono-node/uk")).casual;
        break;
      case "ja":
        chrono = (await import("chrono-node/ja")).casual;
        break;
    }
    // "3 days ago" is never a reminder's time, and English's pattern for it is the costliest there is: V8 compiles
    // a regular expression to machine code on its second use, ≈ 40 ms for this one (measured in Node 22).
    chrono = chrono.clone();
    chrono.parsers = chrono.parsers.filter((parser) => !/TimeUnitAgoFormatParser$/.test(parser.constructor.name));
    loaded.set(locale, chrono);
  }
  return chrono;
}

/**
 * The locales a text may be written in, in the order they are tried. A message carries no language, so the
 * script decides: Cyrillic is Russian or Ukrainian (Ukrainian first when a letter only it has appears), kana
 * or kanji is Japanese, anything else English, then German, French, Spanish and Portuguese. English comes
 * last for the others so that digits-only phrases (`14:30`) still read. Keeping Cyrillic and Japanese out of
 * Latin texts also spares their first parse, which compiles large regular expressions (≈ 20 ms for ru/uk).
 */
function localesFor(text: string): Locale[] {
  if (/[\u0400-\u04FF]/.test(text)) return /[іїєґІЇЄҐ]/.test(text) ? ["uk", "ru", "en"] : ["ru", "uk", "en"];
  if (/[\u3040-\u30FF\u4E00-\u9FFF]/.test(text)) return ["ja", "en"];
  return ["en", "de", "fr", "es", "pt"];
}

/** chrono's reference: the instant, and the zone's offset then in minutes (an IANA name would be ignored). */
export type ChronoReference = { instant: Date; timezone: number };

/**
 * Each locale in turn, the `prefer`red one first, with a `parse` of the text in it; the caller stops when it has
 * what it needs, so a locale it never parses is never loaded.
 */
export function* localeParsers(text: string, ref: ChronoReference, prefer?: Locale): Generator<{ locale: Locale; parse: () => Promise<ParsedResult[]> }> {
  const order = localesFor(text);
  for (const locale of prefer ? [prefer, ...order.filter((l) => l !== prefer)] : order) {
    // forwardDate: "9am" after nine means tomorrow's, "monday" the coming one.
    yield { locale, parse: async () => (await load(locale)).parse(text, ref, { forwardDate: true }) };
  }
}
