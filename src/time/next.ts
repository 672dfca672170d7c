/**
 * @module The next occurrence of a cron expression in a zone, strictly after an instant, with the DST rules
 * of docs/time.md: wall-clock matching; a match inside a spring-forward gap fires once, at the first instant
 * after the gap; a match inside a fall-back overlap fires at its first instant, and at its second too only
 * for an interval expression (minute or hour field with `*`, `-` or `/`).
 */
import { civilFromDays, DAY_MS, daysFromCivil, daysInMonth, HOUR_MS, MINUTE_MS, weekdayOfDays } from "./civil";
import type { CronSchedule, MonthDayRule, WeekdayRule } from "./cron";
import { offsetAt, resolveLocal } from "./zone";

/** Five years of days, plus leap days: the bound for "does this expression ever fire". */
export const SEARCH_DAYS = 1830;

/** Why an occurrence is not simply its wall-clock match. `local` is the matched wall time (local epoch ms). */
export type DstNote =
  | { kind: "gap"; local: number } // did not exist; runs at the first instant after the gap
  | { kind: "first"; local: number } // occurs twice; a fixed expression runs at the first only
  | { kind: "second"; local: number }; // occurs twice; an interval expression runs at the second too

export type Occurrence = { at: number; note: DstNote | null };

/**
 * The first occurrence strictly after `after` (epoch ms), or null when there is none within `maxDays` days.
 *
 * Candidates are walked in local order, but instants are not monotonic in local order inside a fall-back
 * overlap (every first-pass instant precedes every second-pass one), so the walk keeps the earliest instant
 * seen and stops at the first candidate whose earliest instant is already past `after`: no later
 * candidate can map before it.
 */
export function nextOccurrence(cron: CronSchedule, zone: string, after: number, maxDays = SEARCH_DAYS): Occurrence | null {
  const walk = walkFrom(zone, after);
  const startDay = Math.floor(walk.start / DAY_MS);
  const startMinute = (walk.start - startDay * DAY_MS) / MINUTE_MS;
  let best: Occurrence | null = null;
  let day = startDay;
  while (day - startDay <= maxDays) {
    const { year, month, day: dom } = civilFromDays(day);
    if (!cron.months[month]) {
      day += daysInMonth(year, month) - dom + 1; // skip to the 1st of the next month
      continue;
    }
    if (dayMatches(cron, year, month, dom, weekdayOfDays(day))) {
      const from = day === startDay ? startMinute : 0;
      for (const h of cron.hours) {
        if ((h + 1) * 60 <= from) continue;
        for (const m of cron.minutes) {
          if (h * 60 + m < from) continue;
          const found = visit(walk, zone, day * DAY_MS + h * HOUR_MS + m * MINUTE_MS, after, best, cron.interval);
          if (found.done) return found.best;
          best = found.best;
        }
      }
    }
    day++;
  }
  return best;
}

/** Where a walk in local order starts, and up to when a wall time needs no resolving (see `walkFrom`). */
export type Walk = { readonly start: number; readonly offNow: number; readonly steadyUntil: number };

/**
 * The earliest wall time (local epoch ms, on a whole minute) that can map after `after`: in a fall-back ahead,
 * the second pass repeats wall times already behind us. With one offset from 3 hours before to a day after,
 * no transition lies in that span (zones never change twice in a day, nor by 3 hours), so a wall time that
 * lands well inside it is neither in a gap nor repeated, and needs no resolving.
 */
export function walkFrom(zone: string, after: number): Walk {
  const offNow = offsetAt(zone, after);
  const offLater = offsetAt(zone, after + DAY_MS);
  const start = Math.floor((after + Math.min(offNow, offLater)) / MINUTE_MS) * MINUTE_MS;
  const steady = offNow === offLater && offsetAt(zone, after - 3 * HOUR_MS) === offNow;
  return { start, offNow, steadyUntil: steady ? after + DAY_MS - 3 * HOUR_MS : after };
}

/**
 * One wall-clock match of a walk in local order, resolved by the DST rules; `done` when no later match can map
 * before the best instant so far. `interval`: the second pass of a fall-back fires too.
 */
export function visit(
  walk: Walk,
  zone: string,
  local: number,
  after: number,
  best: Occurrence | null,
  interval: boolean,
): { done: boolean; best: Occurrence | null } {
  const guess = local - walk.offNow;
  if (guess > after && guess <= walk.steadyUntil) return { done: true, best: best && best.at < guess ? best : { at: guess, note: null } };
  const r = resolveLocal(zone, local);
  const keep = (o: Occurrence): void => {
    if (o.at > after && (best === null || o.at < best.at)) best = o;
  };
  let earliest: number;
  switch (r.kind) {
    case "normal":
      earliest = r.instant;
      keep({ at: r.instant, note: null });
      break;
    case "gap":
      earliest = r.transition;
      keep({ at: r.transition, note: { kind: "gap", local } });
      break;
    case "ambiguous":
      earliest = r.first;
      keep({ at: r.first, note: interval ? null : { kind: "first", local } });
      if (interval) keep({ at: r.second, note: { kind: "second", local } });
      break;
  }
  return { done: earliest > after, best };
}

/**
 * Classic (Vixie) cron: both day fields restricted → either matches; otherwise both must. `L`, `W` and `#`
 * forms restrict (Cronos ANDs the two fields whatever they hold; we keep cron's OR, docs/time.md).
 */
function dayMatches(cron: CronSchedule, year: number, month: number, dom: number, dow: number): boolean {
  const byDom = cron.monthDay ? monthDayMatches(cron.monthDay, year, month, dom) : cron.daysOfMonth[dom] === true;
  const byDow = cron.weekday ? weekdayMatches(cron.weekday, year, month, dom, dow) : cron.daysOfWeek[dow] === true;
  return !cron.domStar && !cron.dowStar ? byDom || byDow : byDom && byDow;
}

/** `L-n` is n days before the last (none when that falls before the 1st); `W` the weekday nearest, in the month. */
function monthDayMatches(rule: MonthDayRule, year: number, month: number, dom: number): boolean {
  const last = daysInMonth(year, month);
  switch (rule.kind) {
    case "last":
      return dom === last - rule.offset;
    case "nearestWeekday":
      return rule.day <= last && nearestWeekday(year, month, rule.day) === dom;
    case "lastNearestWeekday":
      return last - rule.offset >= 1 && nearestWeekday(year, month, last - rule.offset) === dom;
  }
}

/** Cronos's nearest weekday: Saturday → Friday (Monday the 3rd for the 1st), Sunday → Monday (Friday for the last day). */
export function nearestWeekday(year: number, month: number, day: number): number {
  const wd = weekdayOfDays(daysFromCivil(year, month, day));
  if (wd === 6) return day === 1 ? 3 : day - 1;
  if (wd === 0) return day === daysInMonth(year, month) ? day - 2 : day + 1;
  return day;
}

function weekdayMatches(rule: WeekdayRule, year: number, month: number, dom: number, dow: number): boolean {
  if (dow !== rule.weekday) return false;
  return rule.kind === "last" ? dom + 7 > daysInMonth(year, month) : Math.ceil(dom / 7) === rule.n;
}
