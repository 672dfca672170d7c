/**
 * @module The clause readers of which days (docs/time.md#words-when): weekdays and their lists and ranges (every
 * monday, mon-fri, weekdays, every other tuesday), exceptions (except friday), positions in a month (the last
 * friday, the 2nd working day) and days of the month (the 15th, 1 March). Each reads at the cursor or leaves it
 * where it was, and sets its part of the plan once. Pure.
 */
import { sorted, whole } from "./cursor";
import { leads, monthDayPattern, numericDate, ofMonth, span, weekday, wholeNumber, yearDate } from "./lexicon";
import { type Reading, setOnce, setUnit, tries } from "./reading";

/** The last friday of the month, the first monday, the last day, the 2nd working day, am ersten Montag im Monat. */
export function position(r: Reading): boolean {
  const { c, t } = r;
  return tries(r, () => {
    const every = c.word(t.every) !== null;
    leads(r);
    const ordinals: { n: number; word: string }[] = [];
    for (;;) {
      const before = c.pos;
      const n = c.value(t.ordinals);
      if (n === null) break;
      ordinals.push({ n, word: c.text.slice(before, c.pos).trim() });
      const more = c.attempt(() => {
        if (c.word(t.and) === null) return null;
        leads(r); // the 1st and the last day
        return c.peek(() => c.value(t.ordinals)) ? true : null;
      });
      if (more === null) break;
    }
    if (ordinals.length === 0) return null;
    let target: number | "workday" | "day" | null = null;
    if (c.word(t.workday) !== null) target = "workday";
    else if (c.word(t.units.day) !== null) target = "day";
    else target = weekday(r)?.day ?? null;
    if (target === null) return null;
    const monthly = ofMonth(r);
    // "every second tuesday" is every other tuesday; "the second tuesday (of the month)" a position.
    if (every && !monthly && typeof target === "number" && ordinals.every((o) => whole(t.other, o.word))) return null;
    // "every 4th day" is every 4 days (the 4th of the month is "the 4th", "every 4th of the month").
    if (target === "day" && every && !monthly && ordinals.length === 1 && ordinals[0]!.n > 1) {
      if (!setUnit(r, "day", ordinals[0]!.n)) return null;
      r.said = true;
      return true;
    }
    if (target === "day") {
      if (
        !setOnce(
          r,
          "monthDays",
          ordinals.map((o) => o.n),
        )
      )
        return null;
    } else {
      const day = target;
      if (
        !setOnce(
          r,
          "positions",
          ordinals.map((o) => ({ n: o.n, day })),
        )
      )
        return null;
    }
    r.said = r.said || every || monthly;
    return true;
  });
}

/** A day of the month (the 15th, am 15., le 15, el día 15, 15-го числа), or several; with a month, a date each year. */
export function monthDay(r: Reading): boolean {
  const { c, t } = r;
  const pattern = monthDayPattern(t);
  const one = (): number | null =>
    c.attempt(() => {
      for (;;) {
        const m = c.take(pattern);
        if (m) {
          const day = Number(m.slice(1).find((g) => g !== undefined));
          // "jede 2. Woche", "every 2nd week": an ordinal before a unit counts weeks, not days of the month.
          return day >= 1 && day <= 31 && !c.peek(() => span(r)) ? day : null;
        }
        if (c.word(t.lead) === null) return null;
      }
    });
  return tries(r, () => {
    const every = c.word(t.every) !== null;
    // March 1st, 1 March, 1. März, 31 декабря: a date each year.
    const dated = yearDate(r);
    if (dated) {
      if (!setOnce(r, "monthDays", [dated.day]) || !setOnce(r, "month", dated.month)) return null;
      r.said = r.said || every;
      return true;
    }
    // each 4/15, elke 15-4, jedes Jahr am 31.08.: a date in numbers, each year.
    const numeric = numericDate(r, every);
    if (numeric) {
      if (!setOnce(r, "monthDays", [numeric.day]) || !setOnce(r, "month", numeric.month)) return null;
      r.said = r.said || every;
      return true;
    }
    // "every 27": after a word for every, a number alone is a day of the month (Todoist's "every 27"), unless a
    // unit, a time or a count follows it (every 27 minutes, every 2 hours), or it begins a date in numbers (every 15/4).
    const bare = (): number | null =>
      every
        ? c.attempt(() => {
            const m = c.take(/(\d{1,2})(?![\d:.,/\p{L}])/u);
            const day = m ? Number(m[1]) : 0;
            return day >= 1 && day <= 31 && !c.peek(() => span(r) ?? c.word(t.times) ?? c.word(t.oclock) ?? c.word(t.and)) ? day : null;
          })
        : null;
    const first = one() ?? bare();
    if (first === null) return null;
    const days = [first];
    for (;;) {
      const next = c.attempt(() => (c.word(t.and) !== null ? one() : null));
      if (next === null) break;
      days.push(next);
    }
    const monthly = ofMonth(r);
    if (!setOnce(r, "monthDays", days)) return null;
    r.said = r.said || every || monthly;
    return true;
  });
}

/** Monday, mon-fri, mon, wed and fri, from monday to friday, weekdays, weekends: a set of weekdays. */
function dayList(r: Reading): { days: Set<number>; habit: boolean; fromTo?: true } | null {
  const { c, t } = r;
  if (c.word(t.workdays) !== null) return { days: new Set([1, 2, 3, 4, 5]), habit: true };
  if (c.word(t.weekend) !== null) return { days: new Set([0, 6]), habit: true };
  const range = (from: number, to: number, into: Set<number>) => {
    for (let d = from; d !== to; d = (d + 1) % 7) into.add(d);
    into.add(to);
  };
  const fromTo = c.attempt(() => {
    if (c.word(t.rangeFrom) === null) return null;
    leads(r);
    const a = weekday(r);
    if (!a || c.word(t.rangeTo) === null) return null;
    leads(r);
    const b = weekday(r);
    return b ? { a, b } : null;
  });
  if (fromTo) {
    const days = new Set<number>();
    range(fromTo.a.day, fromTo.b.day, days);
    return { days, habit: true, fromTo: true };
  }
  const first = weekday(r);
  if (!first) return null;
  const days = new Set([first.day]);
  let habit = first.plural;
  let last = first.day;
  for (;;) {
    const to = c.attempt(() => (c.word(t.rangeTo) !== null ? weekday(r) : null));
    if (to) {
      range(last, to.day, days);
      last = to.day;
      habit = habit || to.plural;
      continue;
    }
    const next = c.attempt(() => {
      if (c.word(t.and) === null && c.take(/\//u) === null) return null;
      c.word(t.and); // "mon, wed, and fri"
      leads(r);
      return weekday(r);
    });
    if (!next) return { days, habit };
    days.add(next.day);
    last = next.day;
    habit = habit || next.plural;
  }
}

/** Every monday, on mondays, every other tuesday, jeden zweiten Dienstag, tous les deux mardis, un mardi sur deux, weekdays. */
export function days(r: Reading): boolean {
  const { c, t } = r;
  return tries(r, () => {
    // After a time, "of" may join the day to it: às 8h da segunda-feira, 9am di ogni lunedì (at 9 on mondays).
    if (r.plan.times.length > 0 || r.part !== null) c.word(t.of);
    const every = c.word(t.every) !== null;
    let n = every ? c.attempt(() => wholeNumber(r)) : null;
    if (n === null && c.word(t.other) !== null) n = 2;
    let habit = false;
    for (;;) {
      const lead = c.word(t.lead);
      if (lead === null) break;
      if (sorted(t.habit.before).includes(lead)) habit = true;
    }
    // "un vendredi sur deux", "vrijdag om de week": every other one, said around the day.
    const article = n === null && c.word(t.alternate.before) !== null;
    const list = dayList(r);
    if (list && n === null && c.word(t.alternate.after) !== null) n = 2;
    else if (article) return null;
    // After "every day" or "daily", a day is the text's ("every day at 9 monday report", "weekend plans"); "from monday
    // to friday" says which days (read as a start and an end, it ran every day from Monday on).
    const daily = r.plan.unit === "day" && !(list?.fromTo && r.plan.interval === 1 && n === null);
    if (!list || (n !== null && n < 1) || daily || !setOnce(r, "days", list.days)) return null;
    if (n !== null && n > 1 && !setUnit(r, "week", n)) return null;
    r.said = r.said || every || habit || list.habit || (n ?? 1) > 1;
    return true;
  });
}

/** Except friday, außer Freitag, sauf le vendredi, кроме пятницы. */
export function except(r: Reading): boolean {
  const { c, t } = r;
  return tries(r, () => {
    if (c.word(t.except) === null) return null;
    leads(r);
    const list = dayList(r);
    return list && setOnce(r, "except", list.days) ? true : null;
  });
}
