/**
 * @module The clause readers of how often (docs/time.md#words-when): an interval (every 90 minutes, every 3 days,
 * every other day, daily, every hour and a half) and a count in a unit (twice a day, zweimal täglich, раз в 2
 * недели). Each reads at the cursor or leaves it where it was, and sets the plan's unit once. Pure.
 */

import { clockAt } from "./clauses-times";
import { whole } from "./cursor";
import { adverb, amountOf, andHalf, span, wholeNumber } from "./lexicon";
import { wholeInterval } from "./plan";
import { atEnd, period, periodSaid, type Reading, setUnit, tries } from "./reading";

/** Twice a day, 3 times a day, zweimal täglich, два раза в день, раз в 2 недели. */
export function count(r: Reading): boolean {
  const { c, t } = r;
  return tries(r, () => {
    const word = c.value(t.multiples);
    let n = word;
    if (n === null) {
      n = c.attempt(() => wholeNumber(r)) ?? 1;
      if (c.word(t.times) === null) return null;
    }
    const said = adverb(r);
    let unit = said?.unit ?? null;
    let every = said?.n ?? 1;
    // "every day twice": twice in what the phrase already repeats in (not twice in all: that would be "2 times").
    const implied = word !== null && unit === null && !c.peek(() => c.word(t.per)) ? period(r) : null;
    if (implied !== null && r.plan.unit === implied) {
      if (n < 2 || r.plan.count !== null) return null;
      r.plan.count = n;
      return true;
    }
    if (unit === null) {
      if (c.word(t.per) === null) return null;
      every = c.attempt(() => wholeNumber(r)) ?? 1;
      // раз в полгода, once a quarter: a span with a name of its own counts as its amount.
      const per = span(r);
      unit = per?.unit ?? null;
      every *= per?.n ?? 1;
    }
    if (unit === null || n < 1 || r.plan.count !== null || !setUnit(r, unit, every)) return null;
    r.plan.count = n;
    r.said = true;
    return true;
  });
}

/**
 * Every 90 minutes, every 3 days, every other day, every month, daily; a bare `15 minutes` too, but only to open the
 * phrase, and not where this language writes the same as a time of day (French `16h`, Dutch `2 uur`): a number that
 * is a time is never an interval (`16h tous les lundis` is at 16:00; `16h` alone could be either, and is refused).
 * A one-word adverb after the phrase said how often, or a time of day, starts the text (`friday at 17 weekly report`,
 * `toda noite diário`, `at 9 weekly report`), unless nothing follows it and it says the same again (`every friday
 * weekly`); after a time alone a daily one is the schedule's (`6am daily`, `6am everyday`: nothing said how often).
 */
export function interval(r: Reading): boolean {
  const { c, t } = r;
  return tries(r, () => {
    const before = c.pos;
    const said = adverb(r);
    if (said !== null) {
      // After a time alone (6am daily, 9 Uhr täglich), a daily adverb says how often: nothing else in the phrase did.
      const timeOnly = !periodSaid(r) && !r.said && said.n === 1 && said.unit === "day";
      const implied = periodSaid(r) || ((r.plan.times.length > 0 || r.part !== null) && !timeOnly);
      if (implied && !/\s/u.test(c.text.slice(before, c.pos).trim())) {
        const same = said.n === 1 && period(r) === said.unit && (r.plan.unit === null || r.plan.interval === 1);
        if (!same || !atEnd(r)) return null;
        if (r.plan.unit !== null) return true;
      }
      r.said = true;
      // cada hora y media: the adverb's unit and a half.
      const amount = andHalf(r) ? wholeInterval(said.unit, said.n * 1.5) : said;
      return amount && setUnit(r, amount.unit, "n" in amount ? amount.n : 1) ? true : null;
    }
    const every = c.word(t.every) !== null;
    // `2h` is a duration in every language (`/every 2h`), even where the table has no unit "h".
    const duration = () => c.peek(() => amountOf(r)) || /^\s*\d+h(?![\p{L}\p{N}])/u.test(c.text.slice(c.pos));
    if (!every && (r.clauses > 0 || (duration() && timeHere(r)))) return null;
    // "jede 2. Woche", "every 2nd week", "elke 2e week": an ordinal before a unit counts the units (every 2 weeks).
    const nth = every
      ? c.attempt(() => {
          const n = c.value(t.ordinals);
          return n !== null && n > 1 && c.peek(() => span(r)) ? n : null;
        })
      : null;
    const amount = amountOf(r);
    if (amount === null) return null;
    // Dutch "om de week" is every other week (its `alternate.after`), though "om de 2 weken" is every 2.
    const n = whole(t.alternate.after, c.text.slice(before, c.pos).trim()) ? 2 : amount.n * (nth ?? 1);
    if (!setUnit(r, amount.unit, n)) return null;
    r.said = r.said || every;
    return true;
  });
}

/**
 * Whether the number at the cursor reads as a time of day in this language (`16h`, `9h30`, `2 uur`): then it is one.
 * Unless its minutes are :00 (`16h00`), it could also be how often; that is noted, and refused if nothing else in the
 * phrase says how often (`trouble`).
 */
function timeHere(r: Reading): boolean {
  const { c } = r;
  const from = c.pos;
  let to = from;
  const time = c.peek(() => {
    const clock = clockAt(r);
    to = c.pos;
    return clock;
  });
  if (!time) return false;
  const phrase = c.text.slice(from, to).trim();
  if (!/h00$/u.test(phrase)) r.trouble ??= { kind: "ambiguous", phrase, at: from };
  return true;
}
