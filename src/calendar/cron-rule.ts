/**
 * @module A cron expression as the RRULE that says the same wall times (docs/calendar.md#what-the-feed-holds), when one
 * does: `0 9 * * 1-5` is `FREQ=DAILY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=9;BYMINUTE=0`, `L` and `L-n` are negative month days,
 * `5L` and `MON#1` are `-1FR` and `1MO`, `LW` the last weekday by BYSETPOS. None says Cronos's `nW` and `L-nW`, nor
 * cron's OR of two restricted day fields (`0 12 13 * 5`: every 13th and every Friday): such a job is listed as its
 * runs. The wall times only: where a daylight-saving change makes Cuckoo's instants differ from RFC 5545's, the
 * series (`series.ts`) says so.
 */
import type { CronSchedule } from "../time/cron";
import { WEEKDAYS } from "../time/rule";

/** RFC 5545's two letters of a weekday counted from Sunday (cron's 0). */
const dayName = (sunday0: number): string => WEEKDAYS[(sunday0 + 6) % 7]!;

/** The indexes in [from, to] a mask holds, or null when it holds them all (the part is left out). */
function listed(mask: readonly boolean[], from: number, to: number): number[] | null {
  const values: number[] = [];
  for (let i = from; i <= to; i++) if (mask[i] === true) values.push(i);
  return values.length === to - from + 1 ? null : values;
}

/** The RRULE (without DTSTART, COUNT or UNTIL) whose wall times are the expression's, or null when none is. */
export function cronRrule(cron: CronSchedule): string | null {
  if (!cron.domStar && !cron.dowStar) return null; // cron's OR of the two day fields
  const parts: string[] = [];
  const times = cron.hours.length * cron.minutes.length;
  const months = listed(cron.months, 1, 12);
  const monthDays = cron.monthDay === null ? listed(cron.daysOfMonth, 1, 31) : null;
  const weekdays = cron.weekday === null ? listed(cron.daysOfWeek, 0, 6) : null;
  if (cron.monthDay !== null) {
    const md = cron.monthDay;
    if (md.kind === "nearestWeekday" || (md.kind === "lastNearestWeekday" && md.offset > 0)) return null;
    if (weekdays !== null || (md.kind === "lastNearestWeekday" && times > 1)) return null;
    if (md.kind === "last") parts.push("FREQ=MONTHLY", `BYMONTHDAY=${-(md.offset + 1)}`);
    // LW, the last weekday, at one time of day (BYSETPOS picks among the day-times of the month: ical.js reads it so
    // only for one).
    else parts.push("FREQ=MONTHLY", "BYDAY=MO,TU,WE,TH,FR", "BYSETPOS=-1");
  } else if (cron.weekday !== null) {
    if (monthDays !== null) return null;
    const w = cron.weekday;
    parts.push("FREQ=MONTHLY", `BYDAY=${w.kind === "last" ? -1 : w.n}${dayName(w.weekday)}`);
  } else {
    parts.push("FREQ=DAILY");
    if (monthDays !== null) parts.push(`BYMONTHDAY=${monthDays.join(",")}`);
    if (weekdays !== null) parts.push(`BYDAY=${weekdays.map(dayName).join(",")}`);
  }
  if (months !== null) parts.push(`BYMONTH=${months.join(",")}`);
  // Always both: a part left out would take DTSTART's hour or minute.
  parts.push(`BYHOUR=${cron.hours.join(",")}`, `BYMINUTE=${cron.minutes.join(",")}`);
  return parts.join(";");
}
