/**
 * @module What a schedule says, in the terms the phrase reader reads (`../phrase/plan.ts`), and the shape of one
 * language's way of saying it (`../say.ts` describes a schedule with it). Each language's module writes a phrase
 * its own reader reads back as the same schedule (docs/time.md#descriptions).
 */
import type { Lang, Unit } from "../lang";
import type { Clock, Position } from "../phrase";

/** A local date said in a description, with its time of day when it has one: `2026-12-08`, `11:00`. */
export type SaidAt = { date: string; time: string | null };

/** A schedule as a phrase says it: the phrase reader's plan, settled (its unit always said). */
export type Said = {
  unit: Unit;
  interval: number;
  /** Weekdays, 0 = Sunday, Monday first; null: every day. */
  days: readonly number[] | null;
  /** Days of the month, -1 the last. */
  monthDays: readonly number[] | null;
  positions: readonly Position[] | null;
  /** With `monthDays`: a date each year. */
  month: number | null;
  times: readonly Clock[];
  /** An interval of minutes or hours run from one time of day up to another, each day. */
  window: { from: Clock; to: Clock } | null;
  start: SaidAt | null;
  until: SaidAt | null;
  runs: number | null;
};

/**
 * One language's way of saying a schedule: all of it (null when its reader reads no phrase for it: a description
 * is then English's), or only its ends (after a cron or rule no phrase says, which is shown as written).
 */
export type Speech = { lang: Lang; say(said: Said): string | null; ends(said: Pick<Said, "until" | "runs" | "start">): string };

/** Days of the month in order, the last day (-1) apart: 1st and 15th, and the last. */
export function daysOfMonth(days: readonly number[]): { numbered: number[]; last: boolean } {
  return { numbered: days.filter((d) => d > 0).sort((a, b) => a - b), last: days.includes(-1) };
}

/** The weekday (or working day) every position names, with the positions in order, those from the end after (second-to-last, then last); null when they differ. */
export function sharedDay(positions: readonly Position[]): { day: number | "workday"; ns: number[] } | null {
  const day = positions[0]!.day;
  if (positions.some((p) => p.day !== day)) return null;
  return { day, ns: positions.map((p) => p.n).sort((a, b) => (a < 0 ? 9 + a : a) - (b < 0 ? 9 + b : b)) };
}

/** A date said, with its time after a `T` (chrono reads `2026-12-02T23:00` whole in every language). */
export const dateAt = (s: SaidAt): string => (s.time === null ? s.date : `${s.date}T${s.time}`);

/** `09:00`. */
export const hm = (t: Clock): string => `${String(t.hour).padStart(2, "0")}:${String(t.minute).padStart(2, "0")}`;

/** Weekdays Monday first (0 = Sunday last). */
export const mondayFirst = (days: readonly number[]): number[] => [...days].sort((a, b) => ((a + 6) % 7) - ((b + 6) % 7));

/** Monday to Friday, and Saturday and Sunday. */
export const isWorkdays = (days: readonly number[]): boolean => days.length === 5 && [1, 2, 3, 4, 5].every((d) => days.includes(d));
export const isWeekend = (days: readonly number[]): boolean => days.length === 2 && days.includes(0) && days.includes(6);

/** `a`, `a and b`, `a, b and c` with the language's word for and. */
export function listWith(and: string, items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} ${and} ${items[items.length - 1]}`;
}
