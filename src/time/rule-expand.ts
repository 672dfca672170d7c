/**
 * @module Expanding a recurrence rule in local time, as python-dateutil's `rrule` does (its `_iter` and
 * `_iterinfo`, ported period by period, masks and quirks included): `start` is an instance only when the rule
 * matches it, BY parts default from `start`, BYSETPOS picks within each period, weeks follow WKST. Each local
 * instance becomes an instant by the DST rules of cron (time/next.ts): a gap fires once at its end, an overlap
 * at its first instant, and at its second too for FREQ HOURLY and MINUTELY. COUNT and UNTIL are the caller's
 * (they become a job's runsLeft and until); the walk itself never ends but at its search bound.
 */
import { civilFromDays, DAY_MS, daysFromCivil, daysInMonth, HOUR_MS, MINUTE_MS, weekdayOfDays } from "./civil";
import { remember } from "./memo";
import { type Occurrence, SEARCH_DAYS, visit, walkFrom } from "./next";
import type { Rule } from "./rule";

const mod = (a: number, n: number): number => ((a % n) + n) % n;
const isLeap = (y: number): boolean => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
/** dateutil's weekday numbering: 0 = Monday. */
const weekdayOf = (dayNumber: number): number => mod(weekdayOfDays(dayNumber) - 1, 7);

/** A rule with dateutil's defaults from `start` applied: what the walk reads. */
type Plan = {
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
function plan(rule: Rule, start: number): Plan {
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
type Year = {
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

function yearInfo(p: Plan, year: number): Year {
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
function nthMask(p: Plan, y: Year, month: number): Uint8Array {
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
function dayPasses(p: Plan, y: Year, i: number, nth: Uint8Array | null): boolean {
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

/**
 * dateutil's BYSETPOS: position n of the period's days × times (negative from the end), each once, sorted.
 * `days` are day numbers in order, `times` minutes of the day in order.
 */
function setPositions(positions: readonly number[], days: readonly number[], times: readonly number[]): number[] {
  const out: number[] = [];
  if (!times.length) return out;
  for (const pos of positions) {
    const index = pos < 0 ? pos : pos - 1;
    const dayPos = Math.floor(index / times.length);
    const timePos = mod(index, times.length);
    const day = days[dayPos < 0 ? days.length + dayPos : dayPos];
    if (day === undefined) continue;
    const local = day * DAY_MS + times[timePos]! * MINUTE_MS;
    if (!out.includes(local)) out.push(local);
  }
  return out.sort((a, b) => a - b);
}

/**
 * The rule's local instances (local epoch ms), in order, from the period holding `from` on: every instance
 * at or after both `from` and `start`, until the period starting after `untilDay` (a day number).
 */
export function* instances(rule: Rule, start: number, from: number, untilDay: number): Generator<number> {
  const p = plan(rule, start);
  if (!p.reachable) return;
  const low = Math.max(from, start);
  const emit = function* (locals: Iterable<number>): Generator<number> {
    for (const l of locals) if (l >= low) yield l;
  };
  if (rule.freq === "HOURLY" || rule.freq === "MINUTELY") {
    yield* emit(clockInstances(p, low, untilDay));
    return;
  }
  for (const period of periods(p, Math.floor(low / DAY_MS))) {
    if (period.firstDay > untilDay) return;
    const days: number[] = [];
    const y = period.year;
    for (let i = period.from; i < period.to; i++) if (dayPasses(p, y, i, period.nth)) days.push(y.first + i);
    if (p.rule.bySetPos) yield* emit(setPositions(p.rule.bySetPos, days, p.times));
    else {
      for (const d of days) {
        for (const t of p.times) {
          const local = d * DAY_MS + t * MINUTE_MS;
          if (local >= low) yield local;
        }
      }
    }
  }
}

/** A period's days: indexes `from` (inclusive) to `to` (exclusive) in `year`'s masks. */
type Period = { firstDay: number; year: Year; from: number; to: number; nth: Uint8Array | null };

/** The periods of a YEARLY to DAILY rule, from the one holding day `fromDay` (the first one's start is `start`'s day). */
function* periods(p: Plan, fromDay: number): Generator<Period> {
  const { rule } = p;
  const interval = rule.interval;
  const startDay = Math.floor(p.start / DAY_MS);
  const s = civilFromDays(startDay);
  const f = civilFromDays(fromDay);
  switch (rule.freq) {
    case "YEARLY": {
      for (let year = s.year + Math.max(0, Math.floor((f.year - s.year) / interval)) * interval; ; year += interval) {
        const y = yearInfo(p, year);
        const nth = p.byNWeekday ? nthMask(p, y, 12) : null;
        yield { firstDay: y.first, year: y, from: 0, to: y.length, nth };
      }
    }
    case "MONTHLY": {
      const s0 = s.year * 12 + s.month - 1;
      let m = s0 + Math.max(0, Math.floor((f.year * 12 + f.month - 1 - s0) / interval)) * interval;
      for (; ; m += interval) {
        const year = Math.floor(m / 12);
        const month = m - year * 12;
        const y = yearInfo(p, year);
        const nth = p.byNWeekday ? nthMask(p, y, month) : null;
        const from = y.monthStarts[month]!;
        const to = y.monthStarts[month + 1]!;
        yield { firstDay: y.first + from, year: y, from, to, nth };
      }
    }
    case "WEEKLY": {
      const weekStart = (day: number): number => day - mod(weekdayOf(day) - rule.wkst, 7);
      const w0 = weekStart(startDay);
      const k = Math.max(0, Math.floor((weekStart(fromDay) - w0) / (7 * interval)));
      for (let first = k === 0 ? startDay : w0 + 7 * interval * k; ; first = weekStart(first) + 7 * interval) {
        const y = yearInfo(p, civilFromDays(first).year);
        let end = first + 1;
        while (weekdayOf(end) !== rule.wkst) end++;
        yield { firstDay: first, year: y, from: first - y.first, to: end - y.first, nth: null };
      }
    }
    case "DAILY": {
      for (let day = startDay + Math.max(0, Math.floor((fromDay - startDay) / interval)) * interval; ; day += interval) {
        const y = yearInfo(p, civilFromDays(day).year);
        yield { firstDay: day, year: y, from: day - y.first, to: day - y.first + 1, nth: null };
      }
    }
    default:
      return;
  }
}

/**
 * HOURLY and MINUTELY: dateutil steps a grid of `interval` hours (minutes) from `start`, filtered by BYHOUR,
 * BYMINUTE and the day parts; each grid hour's set is its BYMINUTE minutes (a minute's, itself), and BYSETPOS
 * picks within it. Walked day by day here, from the day holding `from`.
 */
function* clockInstances(p: Plan, from: number, untilDay: number): Generator<number> {
  const { rule } = p;
  const unit = rule.freq === "HOURLY" ? HOUR_MS : MINUTE_MS;
  const step = rule.interval * unit;
  const origin = Math.floor(p.start / unit) * unit;
  const hours = p.byHour ? new Set(p.byHour) : null;
  const minutes = p.byMinute ? new Set(p.byMinute) : null;
  for (let day = Math.floor(from / DAY_MS); day <= untilDay; day++) {
    const y = yearInfo(p, civilFromDays(day).year);
    if (!dayPasses(p, y, day - y.first, null)) continue;
    const dayStart = day * DAY_MS;
    const firstPoint = origin + Math.max(0, Math.ceil((dayStart - origin) / step)) * step;
    for (let t = firstPoint; t < dayStart + DAY_MS; t += step) {
      const hour = Math.floor((t - dayStart) / HOUR_MS);
      if (hours && !hours.has(hour)) continue;
      if (rule.freq === "HOURLY") {
        const set = p.byMinute!.map((m) => t + m * MINUTE_MS);
        yield* rule.bySetPos
          ? setPositions(
              rule.bySetPos,
              [day],
              p.byMinute!.map((m) => hour * 60 + m),
            )
          : set;
      } else {
        if (minutes && !minutes.has(Math.floor((t % HOUR_MS) / MINUTE_MS))) continue;
        if (!rule.bySetPos || rule.bySetPos.includes(1) || rule.bySetPos.includes(-1)) yield t;
      }
    }
  }
}

/**
 * The first occurrence of the rule strictly after `after` (epoch ms) in `zone`, or null when there is none
 * within `maxDays` days: local instances resolved by the DST rules (the second pass of a fall-back only for
 * FREQ HOURLY and MINUTELY). The walk keeps the earliest instant seen, as the cron walk does.
 */
export function nextRuleOccurrence(rule: Rule, start: number, zone: string, after: number, maxDays = SEARCH_DAYS): Occurrence | null {
  const walk = walkFrom(zone, after);
  const lastDay = Math.floor(walk.start / DAY_MS) + maxDays;
  const interval = rule.freq === "HOURLY" || rule.freq === "MINUTELY";
  let best: Occurrence | null = null;
  for (const local of instances(rule, start, walk.start, lastDay)) {
    if (Math.floor(local / DAY_MS) > lastDay) break;
    const found = visit(walk, zone, local, after, best, interval);
    if (found.done) return found.best;
    best = found.best;
  }
  return best;
}
