/**
 * @module What a phrase says (docs/time.md#words-when): the plan the clause readers fill in, each field said at
 * most once (a unit and interval, days and exceptions, positions in a month, times or a part of the day, a
 * window of hours, a count, an end or a start), and the reading the phrase reader hands on with it. `form.ts`
 * turns a plan into the simplest cron or rule. Pure.
 */
import type { DayPart, Unit } from "../lang";

export type Clock = { hour: number; minute: number };

/**
 * A date said in a phrase (until …, starting …): its local wall time, whether it had no time of day, and whether
 * it was a month alone (until March: `local` is its first day).
 */
export type SaidDate = { local: number; dateOnly: boolean; month?: boolean };

/** The n-th (1–5, or -1 for the last) weekday (0 = Sunday) or working day of a month. */
export type Position = { n: number; day: number | "workday" };

/** What a phrase says. A field a phrase did not say is null (`times` empty). */
export type Plan = {
  /** The unit said (every 3 days, daily, twice a week), or null when only implied (monday → weekly). */
  unit: Unit | null;
  interval: number;
  days: ReadonlySet<number> | null;
  except: ReadonlySet<number> | null;
  /** Days of the month, 1–31, and -1 for the last. */
  monthDays: readonly number[] | null;
  positions: readonly Position[] | null;
  /** A month (1–12) with `monthDays`: a date each year. */
  month: number | null;
  times: readonly Clock[];
  /** A part of the day said without a time (every evening): its hour. */
  part: number | null;
  /** Every 2 hours from 9 to 17: the runs of a minute or hour interval, each day from `from` up to `to` inclusive. */
  window: { from: Clock; to: Clock } | null;
  /** Twice a day: how many runs the unit holds, to check against the times or days given. */
  count: number | null;
  until: SaidDate | null;
  runs: number | null;
  /** For 5 days, for 2 weeks: how long the job runs from its first run. */
  span: { n: number; unit: Unit } | null;
  start: SaidDate | null;
};

/** A reading: the plan, where the phrase ends in the text, and what kind of words it used. */
export type PlanRead = {
  plan: Plan;
  end: number;
  /** A word that says a repetition was used (every, daily, weekdays, mondays, of the month …). */
  said: boolean;
  /** A word of this language was used, not only numbers and signs (`14:30` is anyone's). */
  anchored: boolean;
};

/** Nothing read: the part to quote, and where it starts (the reading that got furthest is the one reported). */
export type PlanProblem = { kind: "unreadable"; phrase: string; at: number };

/** Reads the date at `index` of the text (until 31 dec): its length in the text and its wall time, or null. */
export type DateReader = (index: number) => Promise<{ length: number; date: SaidDate } | null>;

/** A plan that says nothing yet (`durationPlan` fills in an interval). */
export function emptyPlan(): Plan {
  return {
    unit: null,
    interval: 1,
    days: null,
    except: null,
    monthDays: null,
    positions: null,
    month: null,
    times: [],
    part: null,
    window: null,
    count: null,
    until: null,
    runs: null,
    span: null,
    start: null,
  };
}

/** Each unit's length in minutes, where it has one. */
export const MINUTES: Partial<Record<Unit, number>> = { minute: 1, hour: 60, day: 1440, week: 10080 };
export const ORDER: readonly Unit[] = ["minute", "hour", "day", "week", "month", "year"];

/**
 * An amount of a unit as whole units: as said when it is whole (36 hours stay hours), else in the largest smaller
 * unit that makes it whole (1.5 hours = 90 minutes, 1.5 weeks = 252 hours); none for a month or year (no fixed length).
 */
export function wholeInterval(unit: Unit, amount: number): { unit: Unit; n: number } | null {
  if (Number.isInteger(amount)) return amount >= 1 ? { unit, n: amount } : null;
  const minutes = MINUTES[unit];
  if (minutes === undefined) return null;
  const total = Math.round(amount * minutes * 1e6) / 1e6;
  if (!Number.isInteger(total) || total < 1) return null;
  const whole = (["week", "day", "hour", "minute"] as const).find((u) => MINUTES[u]! <= minutes && total % MINUTES[u]! === 0)!;
  return { unit: whole, n: total / MINUTES[whole]! };
}

/** A bare hour said with a part of the day: evening at 8 = 20, night at 10 = 22, night at 2 = 2, morning at 7 = 7. */
export function partHour(hour: number, reads: DayPart[1]): number {
  if (reads === "pm") return hour >= 1 && hour <= 11 ? hour + 12 : hour;
  if (reads === "night") return hour >= 6 && hour <= 11 ? hour + 12 : hour === 12 ? 0 : hour;
  return hour;
}
