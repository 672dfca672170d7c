/**
 * @module Expanding a recurrence rule in local time, as python-dateutil's `rrule` does (its `_iter` and
 * `_iterinfo`, ported period by period, masks and quirks included): `start` is an instance only when the rule
 * matches it, BY parts default from `start`, BYSETPOS picks within each period, weeks follow WKST. Each local
 * instance becomes an instant by the DST rules of cron (time/next.ts): a gap fires once at its end, an overlap
 * at its first instant, and at its second too for FREQ HOURLY and MINUTELY. COUNT and UNTIL are the caller's
 * (they become a job's runsLeft and until); the walk itself never ends but at its search bound. The plan and the
 * year masks it walks are `rule-year.ts`'s.
 */
import { civilFromDays, DAY_MS, HOUR_MS, MINUTE_MS } from "./civil";
import { type Occurrence, SEARCH_DAYS, visit, walkFrom } from "./next";
import type { Rule } from "./rule";
import { dayPasses, mod, nthMask, type Plan, plan, weekdayOf, type Year, yearInfo } from "./rule-year";

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
