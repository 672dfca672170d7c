/**
 * @module The date at the start of a phrase's clause (`until 31 dec`, `starting next monday`, `until 1/30`), as a wall
 * time in the zone: what a repetition's start and end are read with (`date-reader.ts`).
 */
import { civilFields, DAY_MS, daysInMonth, localMs, MINUTE_MS } from "../time/civil";
import { offsetAt, toLocal } from "../time/zone";
import { type Locale, localeParsers } from "./chrono";
import { numericDate } from "./numeric-date";
import { monthMatcher } from "./phrase/lexicon";
import { fold } from "./phrase/names";

/**
 * A date at the start of a phrase's clause (`readDateStart`): its length in the text, its local time (midnight when
 * it has no time of day), whether it had no time of day, whether it named a month alone (`until March`), and whether
 * it named a day at all (`until 5pm` names none).
 */
export type DateStart = { length: number; local: number; dateOnly: boolean; month: boolean; dated: boolean };

/**
 * The date at the very start of `text` (the `31 dec` of "until 31 dec", the `next monday` of "starting next
 * monday", the `1/30` of "until 1/30"): a date in numbers in the language's order (`numeric-date.ts`), else
 * chrono's, in `locale` and then English, as a wall time in the zone. Null when no date starts the text.
 */
export async function readDateStart(text: string, zone: string, now: number, locale: Locale): Promise<DateStart | null> {
  const numeric = numericDate(text, locale === "en");
  if (numeric) {
    const today = Math.floor(toLocal(zone, now) / DAY_MS) * DAY_MS;
    const year = numeric.year ?? civilFields(today).year;
    let local = localMs(year, numeric.month, Math.min(numeric.day, daysInMonth(year, numeric.month)));
    if (numeric.year === null && local < today) local = localMs(year + 1, numeric.month, Math.min(numeric.day, daysInMonth(year + 1, numeric.month)));
    return { length: numeric.length, local, dateOnly: true, month: false, dated: true };
  }
  // A month alone (`März`, `mars`, `março`, which chrono does not read in every locale): its next 1st.
  const word = /^\p{L}+\.?(?![\p{L}\p{N}]|\s+\d)/u.exec(text);
  const named = word ? monthMatcher(locale)(fold(word[0]).replace(/\.$/, "")) : null;
  if (word && named !== null) {
    const today = civilFields(toLocal(zone, now));
    const year = named > today.month ? today.year : today.year + 1;
    return { length: word[0].length, local: localMs(year, named, 1), dateOnly: true, month: true, dated: true };
  }
  for (const { parse } of localeParsers(
    text,
    { instant: new Date(now), timezone: offsetAt(zone, now) / MINUTE_MS },
    locale,
    locale === "en" ? ["en"] : [locale, "en"],
  )) {
    const r = (await parse())[0];
    if (r?.index !== 0) continue;
    const c = r.start;
    const dateOnly = !c.isCertain("hour");
    // A month alone (until March) stands for its first day, whatever day chrono guessed.
    const month = dateOnly && c.isCertain("month") && !c.isCertain("day") && !c.isCertain("weekday");
    const day = month ? 1 : c.get("day")!;
    const local = localMs(c.get("year")!, c.get("month")!, day, dateOnly ? 0 : (c.get("hour") ?? 0), dateOnly ? 0 : (c.get("minute") ?? 0));
    const dated = ["day", "weekday", "month", "year"].some((k) => c.isCertain(k as "day"));
    return { length: r.text.trimEnd().length, local, dateOnly, month, dated };
  }
  return null;
}
