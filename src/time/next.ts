/**
 * @module The next occurrence of a cron expression in a zone, strictly after an instant, with the DST rules
 * of DESIGN §4: wall-clock matching; a match inside a spring-forward gap fires once, at the first instant
 * after the gap; a match inside a fall-back overlap fires at its first instant, and at its second too only
 * for an interval expression (minute or hour field with `*`, `-` or `/`).
 */
import { DAY_MS, HOUR_MS, MINUTE_MS, civilFromDays, daysInMonth, weekdayOfDays } from "./civil";
import type { CronSchedule } from "./cron";
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
  const offNow = offsetAt(zone, after);
  const offLater = offsetAt(zone, after + DAY_MS);
  // Start at the earliest wall time that can map after `after`: in a fall-back ahead, the second pass
  // repeats wall times already behind us.
  const start = Math.floor((after + Math.min(offNow, offLater)) / MINUTE_MS) * MINUTE_MS;
  // With one offset from 3 hours before to a day after, no transition lies in that span (zones never change
  // twice in a day, nor by 3 hours), so a wall time that lands well inside it is neither in a gap nor
  // repeated, and needs no resolving.
  const steady = offNow === offLater && offsetAt(zone, after - 3 * HOUR_MS) === offNow;
  const steadyUntil = steady ? after + DAY_MS - 3 * HOUR_MS : after;

  const startDay = Math.floor(start / DAY_MS);
  const startMinute = (start - startDay * DAY_MS) / MINUTE_MS;
  let best: Occurrence | null = null;
  let day = startDay;
  while (day - startDay <= maxDays) {
    const { year, month, day: dom } = civilFromDays(day);
    if (!cron.months[month]) {
      day += daysInMonth(year, month) - dom + 1; // skip to the 1st of the next month
      continue;
    }
    if (dayMatches(cron, dom, weekdayOfDays(day))) {
      const from = day === startDay ? startMinute : 0;
      for (const h of cron.hours) {
        if ((h + 1) * 60 <= from) continue;
        for (const m of cron.minutes) {
          if (h * 60 + m < from) continue;
          const local = day * DAY_MS + h * HOUR_MS + m * MINUTE_MS;
          const guess = local - offNow;
          if (guess > after && guess <= steadyUntil) {
            return best && best.at < guess ? best : { at: guess, note: null };
          }
          const found = candidate(cron, zone, local, after, best);
          if (found.done) return found.best;
          best = found.best;
        }
      }
    }
    day++;
  }
  return best;
}

/** Resolves one wall-clock match; `done` when no later match can map before the best instant so far. */
function candidate(
  cron: CronSchedule,
  zone: string,
  local: number,
  after: number,
  best: Occurrence | null,
): { done: boolean; best: Occurrence | null } {
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
      keep({ at: r.first, note: cron.interval ? null : { kind: "first", local } });
      if (cron.interval) keep({ at: r.second, note: { kind: "second", local } });
      break;
  }
  return { done: earliest > after, best };
}

/** Classic (Vixie) cron: both day fields restricted → either matches; otherwise both must. */
function dayMatches(cron: CronSchedule, dom: number, dow: number): boolean {
  const byDom = cron.daysOfMonth[dom] === true;
  const byDow = cron.daysOfWeek[dow] === true;
  return !cron.domStar && !cron.dowStar ? byDom || byDow : byDom && byDow;
}
