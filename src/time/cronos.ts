/**
 * @module Cronos's meaning of a cron expression whose two day fields are both restricted, as a recurrence rule
 * (for the Playa import, docs/time.md): Cronos runs such an expression on days that match both fields
 * (`0 0 13 * 5` = Friday the 13th), cron on days that match either, so the import keeps Cronos's meaning as
 * `FREQ=MONTHLY;BYMONTHDAY=13;BYDAY=FR;BYHOUR=0;BYMINUTE=0`. Pure.
 */
import { fail, ok, type Parsed } from "../result";
import type { CronSchedule } from "./cron";

const DAYS = ["SU", "MO", "TU", "WE", "TH", "FR", "SA"];

/**
 * The RRULE value that means what Cronos meant by `cron`, for a `start` at or before now (every part it
 * depends on is written out); null when the expression means the same to Cronos and to cron (a day field
 * starts with `*` or `?`). A sentence when no rule can say it: a `W` form beside a day-of-week restriction.
 * An interval expression becomes FREQ=MINUTELY, so that it still fires in both passes of a fall-back, unless
 * its days need a position (`5L`, `MON#1`), which only FREQ=MONTHLY can hold.
 */
export function cronosRule(cron: CronSchedule): Parsed<string> | null {
  if (cron.domStar || cron.dowStar) return null;
  const quoted = `Cronos runs "${cron.source}" only on days that match both its day-of-month and its day-of-week`;
  const monthDays: number[] = [];
  const md = cron.monthDay;
  if (md) {
    if (md.kind !== "last")
      return fail(`${quoted}, and no recurrence rule can say "the weekday nearest" a day and a weekday as well; rewrite it as two jobs or a rule.`);
    monthDays.push(-(md.offset + 1));
  } else {
    for (let d = 1; d <= 31; d++) if (cron.daysOfMonth[d]) monthDays.push(d);
  }
  const wd = cron.weekday;
  const byDay = wd ? [`${wd.kind === "last" ? -1 : wd.n}${DAYS[wd.weekday]}`] : DAYS.filter((_, i) => cron.daysOfWeek[i]);
  const months: number[] = [];
  for (let m = 1; m <= 12; m++) if (cron.months[m]) months.push(m);
  const monthly = wd !== null || !cron.interval;
  const parts = [monthly ? "FREQ=MONTHLY" : "FREQ=MINUTELY"];
  if (months.length < 12) parts.push(`BYMONTH=${months.join(",")}`);
  parts.push(`BYMONTHDAY=${monthDays.join(",")}`, `BYDAY=${byDay.join(",")}`);
  if (monthly || cron.hours.length < 24) parts.push(`BYHOUR=${cron.hours.join(",")}`);
  if (monthly || cron.minutes.length < 60) parts.push(`BYMINUTE=${cron.minutes.join(",")}`);
  return ok(parts.join(";"));
}
