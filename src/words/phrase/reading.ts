/**
 * @module One reading of a phrase in progress (docs/time.md#words-when): the cursor and the table, the plan being
 * filled in, and what the reading learnt on the way (a word that says a repetition, a part of the day, the times
 * said without am/pm). The clause readers (`clauses-*.ts`) write the plan only through `setOnce` and `setUnit`,
 * so that each thing is said once. Pure.
 */
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
};

/** A reading of `text` with `table`, at its start, with nothing read yet. */
export function newReading(text: string, table: PhraseTable): Reading {
  return { c: new Cursor(fold(text)), t: table, plan: emptyPlan(), said: false, part: null, bare: new WeakSet() };
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

/** Sets the unit and its interval, once. */
export function setUnit(r: Reading, unit: Unit, interval: number): boolean {
  if (r.plan.unit !== null) return false;
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

/** Whether what was read says when to run (an end or a count alone does not). */
export function schedules(r: Reading): boolean {
  const p = r.plan;
  return p.unit !== null || p.days !== null || p.monthDays !== null || p.positions !== null || p.times.length > 0 || r.part !== null;
}
