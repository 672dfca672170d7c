/**
 * @module What expanding a recurrence rule (`rule-expand.ts`) reads, as python-dateutil's `rrule` builds it: the plan
 * (the rule with its defaults from `start` applied) and each year's masks (`_iterinfo`: days of the year, months,
 * weeks by WKST and BYWEEKNO, the days BYDAY positions pick) and its day filter, ported line for line, quirks
 * included. Cached per rule and year.
 */
import { civilFromDays, DAY_MS, daysFromCivil, daysInMonth, HOUR_MS, MINUTE_MS, weekdayOfDays } from "./civil";
import { remember } from "./memo";
import type { Rule } from "./rule";

export const mod = (a: number, n: number): number => ((a % n) + n) % n;
const isLeap = (y: number): boolean => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
/** dateutil's weekday numbering: 0 = Monday. */
export const weekdayOf = (dayNumber: number): number => mod(weekdayOfDays(dayNumber) - 1, 7);

/** A rule with dateutil's defaults from `start` applied: what the walk reads. */
export type Plan = {
  rule: Rule;
  start: number;
  byMonth: ReadonlySet<number> | null;
  byMonthDay: ReadonlySet<number>;
  byNMonthDay: ReadonlySet<number>;
  byWeekday: ReadonlySet<number> | null;
  byNWeekday: readonly { weekday: number; n: number }[] | null;
  byYearDay: ReadonlySet<number> | null;
  byHour: readonly number[] | null;
  byMinute: readonly number[] | null;
  /** Minutes of the day, sorted (YEARLY to DAILY): BYHOUR × BYMINUTE. */
  times: readonly number[];
  /** HOURLY and MINUTELY reach only the values their interval's grid meets; empty = the rule never fires. */
  reachable: boolean;
  /** The masks of the years walked so far. */
  years: Map<number, Year>;
};

const plans = new WeakMap<Rule, Map<number, Plan>>();

/** The plan of a rule and start, kept while the rule object lives (parsed rules are cached by their text). */
export function plan(rule: Rule, start: number): Plan {
  let byStart = plans.get(rule);
  if (!byStart) {
    byStart = new Map();
    plans.set(rule, byStart);
  }
  return remember(byStart, start, () => makePlan(rule, start), 16);
}

function makePlan(rule: Rule, start: number): Plan {
  const startDay = Math.floor(start / DAY_MS);
  const { month, day } = civilFromDays(startDay);
  const startHour = Math.floor((start - startDay * DAY_MS) / HOUR_MS);
  const startMinute = Math.floor((start % HOUR_MS) / MINUTE_MS);
  let byMonth = rule.byMonth;
  let byMonthDay = rule.byMonthDay;
  let byDay = rule.byDay;
  if (!rule.byWeekNo && !rule.byYearDay && !byMonthDay && !byDay) {
    if (rule.freq === "YEARLY") {
      byMonth ??= [month];
      byMonthDay = [day];
    } else if (rule.freq === "MONTHLY") byMonthDay = [day];
    else if (rule.freq === "WEEKLY") byDay = [{ weekday: weekdayOf(startDay), n: 0 }];
  }
  const plain = byDay?.filter((d) => d.n === 0).map((d) => d.weekday) ?? [];
  const nth = byDay?.filter((d) => d.n !== 0) ?? [];
  const daily = rule.freq !== "HOURLY" && rule.freq !== "MINUTELY";
  let byHour = rule.byHour;
  let byMinute = rule.byMinute;
  let reachable = true;
  // dateutil's __construct_byset: with FREQ=HOURLY (MINUTELY) only hours (minutes) on the interval's grid.
  if (rule.freq === "HOURLY" && byHour) {
    byHour = byHour.filter((h) => mod(h - startHour, gcd(rule.interval, 24)) === 0);
    reachable = byHour.length > 0;
  }
  if (rule.freq === "MINUTELY" && byMinute) {
    byMinute = byMinute.filter((m) => mod(m - startMinute, gcd(rule.interval, 60)) === 0);
    reachable = byMinute.length > 0;
  }
  if (daily) byHour ??= [startHour];
  if (rule.freq !== "MINUTELY") byMinute ??= [startMinute];
  const times = daily ? byHour!.flatMap((h) => byMinute!.map((m) => h * 60 + m)).sort((a, b) => a - b) : [];
  return {
    rule,
    start,
    byMonth: byMonth ? new Set(byMonth) : null,
    byMonthDay: new Set(byMonthDay?.filter((d) => d > 0) ?? []),
    byNMonthDay: new Set(byMonthDay?.filter((d) => d < 0) ?? []),
    byWeekday: plain.length ? new Set(plain) : null,
    byNWeekday: nth.length ? nth : null,
    byYearDay: rule.byYearDay ? new Set(rule.byYearDay) : null,
    byHour,
    byMinute,
    times,
    reachable,
    years: new Map(),
  };
}

function gcd(a: number, b: number): number {
  while (b) [a, b] = [b, a % b];
  return a;
}

/** dateutil's per-year masks: day i of the year (0-based, 7 days into the next year) and its attributes. */
export type Year = {
  year: number;
  first: number; // day number of 1 January
  length: number;
  nextLength: number;
  monthStarts: readonly number[]; // 13 entries, day indexes
  /** Month (1–12), day of month and days from the month's end (-1 = last) of day i, 7 days into the next year. */
  month: Uint8Array;
  day: Uint8Array;
  fromEnd: Int8Array;
  weekNo: Uint8Array | null;
  /** Per month (index 0–11, or 12 for the whole year) the days BYDAY positions pick. */
  nth: Map<number, Uint8Array>;
};

export function yearInfo(p: Plan, year: number): Year {
  return remember(p.years, year, () => makeYear(p, year), 64);
}

function makeYear(p: Plan, year: number): Year {
  const length = isLeap(year) ? 366 : 365;
  const monthStarts = [0];
  for (let m = 1; m <= 12; m++) monthStarts.push(monthStarts[m - 1]! + daysInMonth(year, m));
  const month = new Uint8Array(length + 8);
  const day = new Uint8Array(length + 8);
  const fromEnd = new Int8Array(length + 8);
  for (let i = 0, m = 1, d = 1; i < length + 8; i++) {
    const dim = daysInMonth(m === 13 ? year + 1 : year, m === 13 ? 1 : m);
    month[i] = m === 13 ? 1 : m;
    day[i] = d;
    fromEnd[i] = d - dim - 1;
    if (++d > dim) [m, d] = [m + 1, 1];
  }
  const y: Year = {
    year,
    first: daysFromCivil(year, 1, 1),
    length,
    nextLength: isLeap(year + 1) ? 366 : 365,
    monthStarts,
    month,
    day,
    fromEnd,
    weekNo: null,
    nth: new Map(),
  };
  if (p.rule.byWeekNo) y.weekNo = weekNoMask(p, y);
  return y;
}

/** dateutil's `wnomask`, line for line (its week 1 of the next year and last week of the previous one included). */
function weekNoMask(p: Plan, y: Year): Uint8Array {
  const wkst = p.rule.wkst;
  const byWeekNo = p.rule.byWeekNo!;
  const mask = new Uint8Array(y.length + 8);
  const yearWeekday = weekdayOf(y.first);
  const wday = (i: number): number => mod(yearWeekday + i, 7);
  let no1wkst = mod(7 - yearWeekday + wkst, 7);
  const firstwkst = no1wkst;
  let wyearlen: number;
  if (no1wkst >= 4) {
    no1wkst = 0;
    wyearlen = y.length + mod(yearWeekday - wkst, 7);
  } else {
    wyearlen = y.length - no1wkst;
  }
  const numweeks = Math.floor(wyearlen / 7) + Math.floor((wyearlen % 7) / 4);
  const markWeek = (i: number): void => {
    for (let j = 0; j < 7; j++) {
      mask[i] = 1;
      i++;
      if (wday(i) === wkst) break;
    }
  };
  for (let n of byWeekNo) {
    if (n < 0) n += numweeks + 1;
    if (!(n > 0 && n <= numweeks)) continue;
    let i: number;
    if (n > 1) {
      i = no1wkst + (n - 1) * 7;
      if (no1wkst !== firstwkst) i -= 7 - firstwkst;
    } else {
      i = no1wkst;
    }
    markWeek(i);
  }
  if (byWeekNo.includes(1)) {
    let i = no1wkst + numweeks * 7;
    if (no1wkst !== firstwkst) i -= 7 - firstwkst;
    if (i < y.length) markWeek(i);
  }
  if (no1wkst) {
    let lnumweeks: number;
    if (!byWeekNo.includes(-1)) {
      const lyearweekday = weekdayOf(daysFromCivil(y.year - 1, 1, 1));
      let lno1wkst = mod(7 - lyearweekday + wkst, 7);
      const lyearlen = isLeap(y.year - 1) ? 366 : 365;
      if (lno1wkst >= 4) {
        lno1wkst = 0;
        lnumweeks = 52 + Math.floor(mod(lyearlen + mod(lyearweekday - wkst, 7), 7) / 4);
      } else {
        lnumweeks = 52 + Math.floor(mod(y.length - no1wkst, 7) / 4);
      }
    } else {
      lnumweeks = -1;
    }
    if (byWeekNo.includes(lnumweeks)) for (let i = 0; i < no1wkst; i++) mask[i] = 1;
  }
  return mask;
}

/** dateutil's `nwdaymask` for a MONTHLY period (month 0–11) or a YEARLY one (12): the days BYDAY positions pick. */
export function nthMask(p: Plan, y: Year, month: number): Uint8Array {
  let mask = y.nth.get(month);
  if (mask) return mask;
  mask = new Uint8Array(y.length);
  const ranges: [number, number][] = [];
  if (month < 12) ranges.push([y.monthStarts[month]!, y.monthStarts[month + 1]!]);
  else if (p.byMonth) for (const m of [...p.byMonth].sort((a, b) => a - b)) ranges.push([y.monthStarts[m - 1]!, y.monthStarts[m]!]);
  else ranges.push([0, y.length]);
  const yearWeekday = weekdayOf(y.first);
  for (const [first, end] of ranges) {
    const last = end - 1;
    for (const { weekday, n } of p.byNWeekday!) {
      let i: number;
      if (n < 0) {
        i = last + (n + 1) * 7;
        i -= mod(mod(yearWeekday + i, 7) - weekday, 7);
      } else {
        i = first + (n - 1) * 7;
        i += mod(7 - mod(yearWeekday + i, 7) + weekday, 7);
      }
      if (first <= i && i <= last) mask[i] = 1;
    }
  }
  y.nth.set(month, mask);
  return mask;
}

/** dateutil's day filter for day index i of year y (i may run 7 days into the next year in a weekly period). */
export function dayPasses(p: Plan, y: Year, i: number, nth: Uint8Array | null): boolean {
  if (p.byMonth && !p.byMonth.has(y.month[i]!)) return false;
  if (y.weekNo && !y.weekNo[i]) return false;
  if (p.byWeekday && !p.byWeekday.has(weekdayOf(y.first + i))) return false;
  if (nth && !nth[i]) return false;
  if ((p.byMonthDay.size || p.byNMonthDay.size) && !p.byMonthDay.has(y.day[i]!) && !p.byNMonthDay.has(y.fromEnd[i]!)) return false;
  if (p.byYearDay) {
    const inYear = i < y.length;
    const positive = inYear ? i + 1 : i + 1 - y.length;
    const negative = inYear ? i - y.length : i - y.length - y.nextLength;
    if (!p.byYearDay.has(positive) && !p.byYearDay.has(negative)) return false;
  }
  return true;
}
