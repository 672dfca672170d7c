/**
 * @module The clause readers of what time of day (docs/time.md#words-when): times (at 9 and 18, 8:30, 9pm, 18 Uhr,
 * noon), a part of the day (every evening, sunday evening, каждое утро) and a window of hours (from 9 to 17,
 * between 9am and 5pm). A number is a time only where a word makes it one (at, o'clock, am/pm, a list of times);
 * times said without am/pm are marked `bare`, so that a part of the day said with them may still make them pm.
 * Each reads at the cursor or leaves it where it was. Pure.
 */
import { leads } from "./lexicon";
import { type Clock, partHour } from "./plan";
import { type Reading, setOnce, tries } from "./reading";

/** Hours and minutes as digits: `8`, `08:30`, `8.30`, and `9h30` where the language writes times so (`oclock` has h). */
const PLAIN = /(\d{1,2})(?:[:.](\d{2}))?(?!\d)/u;
const WITH_H = /(\d{1,2})(?:(?:[:.]|h)(\d{2}))?(?!\d)/u;

/**
 * `at 8`, `08:30`, `8.30`, `8am`, `9:15 pm`, `9h30`, `18 Uhr`, `noon`: hour and minute, or null. A bare number
 * is a time only after a word for "at", before one for "o'clock", or as a later item of a list (at 9 and 18).
 */
function clock(r: Reading, inherited: boolean): Clock | null {
  const { c, t } = r;
  return c.attempt(() => {
    const at = c.word(t.at) !== null;
    if (c.word(t.noon) !== null) return { hour: 12, minute: 0 };
    if (c.word(t.midnight) !== null) return { hour: 0, minute: 0 };
    const m = c.take(t.oclock.includes("h") ? WITH_H : PLAIN);
    // After a word for "at", an hour in words too (a las tres de la tarde, um drei Uhr).
    const word = m || !at ? null : c.value(t.numbers);
    if (!m && (word === null || !Number.isInteger(word) || word < 1 || word > 12)) return null;
    let hour = m ? Number(m[1]) : word!;
    const minute = m?.[2] === undefined ? 0 : Number(m[2]);
    let am = c.word(t.am) !== null;
    let pm = !am && c.word(t.pm) !== null;
    const oclock = c.word(t.oclock) !== null;
    // 8h du soir, 8 Uhr abends: the half of the day may follow the word for o'clock too.
    if (oclock && !am && !pm) {
      am = c.word(t.am) !== null;
      pm = !am && c.word(t.pm) !== null;
    }
    if (!at && !inherited && !oclock && !am && !pm && m?.[2] === undefined) return null;
    if (am || pm) {
      if (hour < 1 || hour > 12) return null;
      hour = (hour % 12) + (pm ? 12 : 0);
    }
    if (hour > 23 || minute > 59) return null;
    const said = { hour, minute };
    if (!am && !pm) r.bare.add(said);
    return said;
  });
}

/** A clock time at the cursor, as the opening of a list would read it (`at 8`, `16h`, `8pm`), or null. */
export function clockAt(r: Reading): Clock | null {
  return clock(r, false);
}

/** One or more times of day: at 9 and 18, um 9 und 18 Uhr, a las 9 y a las 18. */
export function times(r: Reading): boolean {
  const { c, t } = r;
  return tries(r, () => {
    const first = clock(r, false);
    if (!first) return null;
    const list = [first];
    for (;;) {
      const next = c.attempt(() => {
        const sep = c.word(t.and);
        if (sep === null) return null;
        if (sep !== ",") return clock(r, true);
        // After a comma, a bare number only when the list goes on (at 8, 13 and 19; "at 8, 3 pills" keeps its 3).
        return (
          clock(r, false) ??
          c.attempt(() => {
            const bare = clock(r, true);
            return bare && c.peek(() => (c.word(t.and) !== null ? clock(r, true) : null)) ? bare : null;
          })
        );
      });
      if (!next) break;
      list.push(next);
    }
    return setOnce(r, "times", list) ? true : null;
  });
}

/**
 * Every morning, in the evening, sunday evening, jeden Morgen, le soir, каждое утро: a part of the day, once. After a
 * clock time it is the schedule's only when it changes the hour (`at 8 in the evening` is 20:00) or follows a word for
 * every (`om 9 uur iedere ochtend`); otherwise it starts the text (`at 7 morning pages`).
 */
export function dayPart(r: Reading): boolean {
  const { c, t } = r;
  return tries(r, () => {
    if (r.part) return null;
    let every = false;
    const part =
      c.value(t.dayParts) ??
      c.attempt(() => {
        every = c.word(t.every) !== null;
        leads(r);
        return c.value(t.dayParts) ?? (every ? c.value(t.dayPartsAfterEvery) : null);
      });
    if (!part) return null;
    if (!every && r.plan.times.length > 0 && !r.plan.times.some((time) => r.bare.has(time) && partHour(time.hour, part) !== time.hour)) return null;
    r.said = r.said || every;
    r.part = part;
    return true;
  });
}

/** From 9 to 17, between 9am and 5pm, von 9 bis 17 Uhr, entre 9h et 17h, dalle 9 alle 17, с 9 до 17: once. */
export function window(r: Reading): boolean {
  const { c, t } = r;
  return tries(r, () => {
    const between = c.word(t.between) !== null;
    if (r.plan.window || (!between && c.word(t.rangeFrom) === null)) return null;
    leads(r);
    const from = clock(r, true);
    if (!from || c.word(between ? t.and : t.rangeTo) === null) return null;
    leads(r);
    let to = clock(r, true);
    if (!to) return null;
    // From 9 to 5 is a working day's, to 17:00, not to 05:00 the next morning.
    if (r.bare.has(to) && to.hour < 12 && to.hour < from.hour && to.hour + 12 > from.hour) to = { hour: to.hour + 12, minute: to.minute };
    r.plan.window = { from, to };
    return true;
  });
}
