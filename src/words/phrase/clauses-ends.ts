/**
 * @module The clause readers of where a repetition starts and ends (docs/time.md#words-when): a number of runs
 * (10 times, 10-mal, 10 раз), how long it goes on (for 5 days, für 2 Wochen, в течение 3 дней), an end date
 * (until 31 dec, bis 31. Dezember) and a start date (starting next monday, from 1 jan, с 1 января). The dates are
 * chrono-node's, read through the `DateReader` the caller gives in the phrase's language. Each reads at the
 * cursor or leaves it where it was. Pure.
 */
import { span, wholeNumber } from "./lexicon";
import { type DateReader, ORDER } from "./plan";
import { period, type Reading, setOnce, tries } from "./reading";

/**
 * 10 times, for 10 times, 10-mal, 10 раз: how many runs; for 5 days, für 2 Wochen, в течение 3 дней: for how
 * long. A span shorter than what the phrase repeats in is not one (every monday for 2 hours: the text says how
 * long the meeting is).
 */
export function runs(r: Reading): boolean {
  const { c, t } = r;
  return tries(r, () => {
    const lead = c.word(t.for) !== null;
    const n = wholeNumber(r);
    c.take(/-/u);
    if (n === null) return null;
    if (c.word(t.times) !== null) {
      // Before a word for every, a count says how often, not how many runs: "une fois tous les deux mois" is every two
      // months (once is the repetition itself); "deux fois tous les mois" could be either, and is not read.
      if (c.peek(() => c.word(t.every))) return n === 1 ? true : null;
      return setOnce(r, "runs", n) ? true : null;
    }
    const long = lead ? span(r) : null;
    const unit = period(r);
    if (!long || n < 1 || (unit !== null && ORDER.indexOf(long.unit) < ORDER.indexOf(unit))) return null;
    return setOnce(r, "span", { n: n * long.n, unit: long.unit }) ? true : null;
  });
}

/**
 * Until 31 dec, starting next monday, from 1 jan, bis 31. Dezember, с 1 января: the date is chrono's. `keys` says
 * which of the two may be read; `dated`, that the date must name a day (after the text, `until 5pm` is the text's).
 */
export async function dateClause(r: Reading, readDate: DateReader, options: { keys?: readonly ("until" | "start")[]; dated?: boolean } = {}): Promise<boolean> {
  const { c, t } = r;
  for (const key of options.keys ?? (["until", "start"] as const)) {
    const words = key === "until" ? t.until : t.starting;
    const read = await c.attemptAsync(async () => {
      if (c.word(words) === null) return null;
      while (c.word(t.dateLead) !== null);
      const at = c.pos + (c.text.slice(c.pos).length - c.text.slice(c.pos).trimStart().length);
      const date = await readDate(at);
      if (!date || (options.dated && !date.dated) || !setOnce(r, key, date.date)) return null;
      c.pos = at + date.length;
      return true;
    });
    if (read) return true;
  }
  return false;
}
