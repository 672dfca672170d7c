/**
 * @module One reading of a phrase in progress (docs/time.md#words-when): the cursor and the table, the plan being
 * filled in, and what the reading learnt on the way (a word that says a repetition, a part of the day, the times
 * said without am/pm). The clause readers (`clauses-*.ts`) write the plan only through `setOnce` and `setUnit`,
 * so that each thing is said once. Pure.
 */
import { MAX_INTERVAL } from "../../time/rule";
import type { DayPart, PhraseTable, Unit } from "../lang";
import { Cursor } from "./cursor";
import type { Lexed } from "./lexicon";
import { fold } from "./names";
import { type Clock, emptyPlan, type Plan } from "./plan";

export type Reading = Lexed & {
  readonly plan: { -readonly [K in keyof Plan]: Plan[K] };
  /** A word that says a repetition was read (every, daily, weekdays, mondays, of the month …). */
  said: boolean;
  /** The part of the day said (every evening), applied to the times at the end. */
  part: DayPart | null;
  /** Times said with neither am/pm nor a word for noon: a part of the day may still make them pm. */
  readonly bare: WeakSet<Clock>;
  /** How many clauses were read: a bare amount (`2h`, no word for every) is an interval only as the first. */
  clauses: number;
  /** The last number read, as written: the one a clause refuses as too large (`every 99999999999999999999 minutes`). */
  number: string;
  /** Why the phrase cannot be read whole, found on the way: a number too large, a time that may be an interval. */
  trouble: { kind: "too-large" | "ambiguous"; phrase: string; at: number } | null;
};

/** A reading of `text` with `table`, at its start, with nothing read yet. */
export function newReading(text: string, table: PhraseTable): Reading {
  return { c: new Cursor(fold(text)), t: table, plan: emptyPlan(), said: false, part: null, bare: new WeakSet(), clauses: 0, number: "", trouble: null };
}

/** Runs a clause's rule: true when it read (and moved on), else the position is put back. */
export function tries(r: Lexed, rule: () => true | null): boolean {
  return r.c.attempt(rule) !== null;
}

/** Sets a field of the plan that was not said yet; false when it was (each thing is said once). */
export function setOnce<K extends keyof Plan>(r: Reading, key: K, value: Plan[K]): boolean {
  const empty = key === "times" ? r.plan.times.length === 0 : key === "interval" ? true : r.plan[key] === null;
  if (!empty) return false;
  r.plan[key] = value;
  return true;
}

/** Each unit's largest interval: as many as fit in the 5 years a schedule must run within (`MAX_INTERVAL`). */
const MAX: Readonly<Record<Unit, number>> = {
  minute: MAX_INTERVAL.MINUTELY,
  hour: MAX_INTERVAL.HOURLY,
  day: MAX_INTERVAL.DAILY,
  week: MAX_INTERVAL.WEEKLY,
  month: MAX_INTERVAL.MONTHLY,
  year: MAX_INTERVAL.YEARLY,
};

/** Sets the unit and its interval, once; an interval past 5 years is trouble (the number is too large), not a reading. */
export function setUnit(r: Reading, unit: Unit, interval: number): boolean {
  if (r.plan.unit !== null) return false;
  if (interval > MAX[unit]) {
    r.trouble ??= { kind: "too-large", phrase: r.number || String(interval), at: r.c.pos };
    return false;
  }
  r.plan.unit = unit;
  r.plan.interval = interval;
  return true;
}

/** The unit the phrase so far repeats in (every monday: weeks; mon and thu, at 9: days), or null when none yet. */
export function period(r: Reading): Unit | null {
  const p = r.plan;
  if (p.unit !== null) return p.unit;
  if (p.month !== null) return "year";
  if (p.monthDays || p.positions) return "month";
  if (p.days) return p.days.size === 1 ? "week" : "day";
  return p.times.length > 0 || r.part ? "day" : null;
}

/** Whether what was read says how often, beyond a time of day: a unit, days, days of the month, a month. */
export function periodSaid(r: Reading): boolean {
  const p = r.plan;
  return p.unit !== null || p.days !== null || p.monthDays !== null || p.positions !== null || p.month !== null;
}

/** Whether only spaces and punctuation follow the cursor: the phrase ends here, with no text after it. */
export function atEnd(r: Lexed): boolean {
  return /^[\s.,;:!?]*$/u.test(r.c.text.slice(r.c.pos));
}

/** Whether what was read says when to run (an end or a count alone does not). */
export function schedules(r: Reading): boolean {
  const p = r.plan;
  return p.unit !== null || p.days !== null || p.monthDays !== null || p.positions !== null || p.times.length > 0 || r.part !== null;
}
