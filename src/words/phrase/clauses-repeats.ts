/**
 * @module The clause readers of how often (docs/time.md#words-when): an interval (every 90 minutes, every 3 days,
 * every other day, daily, every hour and a half) and a count in a unit (twice a day, zweimal täglich, раз в 2
 * недели). Each reads at the cursor or leaves it where it was, and sets the plan's unit once. Pure.
 */
import { adverb, amountOf, andHalf, unitWord, wholeNumber } from "./lexicon";
import { wholeInterval } from "./plan";
import { type Reading, setUnit, tries } from "./reading";

/** Twice a day, 3 times a day, zweimal täglich, два раза в день, раз в 2 недели. */
export function count(r: Reading): boolean {
  const { c, t } = r;
  return tries(r, () => {
    let n = c.value(t.multiples);
    if (n === null) {
      n = c.attempt(() => wholeNumber(r)) ?? 1;
      if (c.word(t.times) === null) return null;
    }
    const said = adverb(r);
    let unit = said?.unit ?? null;
    let every = said?.n ?? 1;
    if (unit === null) {
      if (c.word(t.per) === null) return null;
      every = c.attempt(() => wholeNumber(r)) ?? 1;
      unit = unitWord(r);
    }
    if (unit === null || n < 1 || r.plan.count !== null || !setUnit(r, unit, every)) return null;
    r.plan.count = n;
    r.said = true;
    return true;
  });
}

/** Every 90 minutes, every 3 days, every other day, every month, daily; a bare `15 minutes` too. */
export function interval(r: Reading): boolean {
  const { c, t } = r;
  return tries(r, () => {
    const said = adverb(r);
    if (said !== null) {
      r.said = true;
      // cada hora y media: the adverb's unit and a half.
      const amount = andHalf(r) ? wholeInterval(said.unit, said.n * 1.5) : said;
      return amount && setUnit(r, amount.unit, "n" in amount ? amount.n : 1) ? true : null;
    }
    const every = c.word(t.every) !== null;
    const amount = amountOf(r);
    if (amount === null || !setUnit(r, amount.unit, amount.n)) return null;
    r.said = r.said || every;
    return true;
  });
}
