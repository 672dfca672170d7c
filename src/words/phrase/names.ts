/**
 * @module Weekday and month names as a language writes them, from the runtime's own `Intl` (CLDR) rather than
 * lists of our own: each name's long and short form, standalone and in a date (Russian `декабрь`, `31 декабря`),
 * folded as `fold` folds text. Built on first use per language and cached.
 */

/** A word as the phrase readers compare it: lower case, accents off (`mércoles` = `miercoles`), `ё` as `е`. */
export function fold(text: string): string {
  let out = "";
  // Character by character, each kept as long as it was, so that the folded text has the original's indices.
  for (const ch of text) {
    const lower = ch.toLowerCase();
    const base = lower.normalize("NFD")[0] ?? lower;
    const one = base.length === ch.length ? base : lower.length === ch.length ? lower : ch;
    out += one === "ё" ? "е" : one === "’" || one === "ʼ" ? "'" : one;
  }
  return out;
}

/** The names of one language: `weekdays[0]` are Sunday's, `months[0]` January's; each list long names first. */
export type Names = { weekdays: readonly string[][]; months: readonly string[][] };

const cache = new Map<string, Names>();

/** Long and short, without a trailing dot (`lun.`), each once, longest first. */
function forms(values: string[]): string[] {
  const all = values.map((v) => fold(v).replace(/\.$/, "").trim()).filter((v) => v !== "");
  return [...new Set(all)].sort((a, b) => b.length - a.length);
}

/** The names of `locale` (a BCP 47 language such as `de`). */
export function namesOf(locale: string): Names {
  let names = cache.get(locale);
  if (!names) {
    const format = (options: Intl.DateTimeFormatOptions, part: "weekday" | "month") => {
      const f = new Intl.DateTimeFormat(locale, { ...options, timeZone: "UTC" });
      return (at: number) => f.formatToParts(at).find((p) => p.type === part)?.value ?? "";
    };
    const weekdayForms = [
      format({ weekday: "long" }, "weekday"),
      format({ weekday: "short" }, "weekday"),
      format({ weekday: "long", day: "numeric", month: "long" }, "weekday"),
    ];
    const monthForms = [
      format({ month: "long" }, "month"),
      format({ month: "short" }, "month"),
      format({ month: "long", day: "numeric" }, "month"),
      format({ month: "short", day: "numeric" }, "month"),
    ];
    // 1 January 2023 was a Sunday: the days of that week, and the 15th of each month of that year.
    const weekdays = Array.from({ length: 7 }, (_, d) => forms(weekdayForms.map((f) => f(Date.UTC(2023, 0, 1 + d, 12)))));
    const months = Array.from({ length: 12 }, (_, m) => forms(monthForms.map((f) => f(Date.UTC(2023, m, 15, 12)))));
    names = { weekdays, months };
    cache.set(locale, names);
  }
  return names;
}
