/**
 * @module A recurrence rule in plain English (docs/time.md preview, the job line): `Every 2 weeks on Tuesday at
 * 10:00`, `On the last weekday of the month at 09:00`, `Every 90 minutes`. The common shapes get their own
 * phrase; anything else is said part by part, never wrongly.
 */
import { civilFromDays, DAY_MS, MINUTE_MS, weekdayOfDays } from "./civil";
import type { ByDay, Rule } from "./rule";

const DAY_NAMES = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];
const MONTH_NAMES = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
const POSITIONS = ["", "first", "second", "third", "fourth", "fifth"];
const UNITS: Record<Rule["freq"], [string, string]> = {
  YEARLY: ["year", "years"],
  MONTHLY: ["month", "months"],
  WEEKLY: ["week", "weeks"],
  DAILY: ["day", "days"],
  HOURLY: ["hour", "hours"],
  MINUTELY: ["minute", "minutes"],
};

const pad = (n: number): string => String(n).padStart(2, "0");
const hm = (minutes: number): string => `${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;

/** `a`, `a and b`, `a, b and c`. */
export function list(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

/** 1st, 2nd, 3rd, 4th, 11th, 21st. */
export function ordinal(n: number): string {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? "th" : (["th", "st", "nd", "rd"][n % 10] ?? "th");
  return `${n}${suffix ?? "th"}`;
}

/** `first`, `last`, `second to last`, `10th`, `3rd to last`. */
function position(n: number): string {
  if (n === -1) return "last";
  if (n < 0) return `${n === -2 ? "second" : ordinal(-n)} to last`;
  return POSITIONS[n] ?? ordinal(n);
}

/** `15th`, `last day`, `2nd to last day`. */
function monthDay(n: number): string {
  if (n === -1) return "last day";
  return n < 0 ? `${ordinal(-n)} to last day` : ordinal(n);
}

function weekdays(days: readonly number[]): string {
  const set = [...new Set(days)].sort((a, b) => a - b);
  if (set.join() === "0,1,2,3,4") return "weekdays";
  if (set.join() === "5,6") return "weekends";
  if (set.length === 7) return "every day of the week";
  return list(set.map((d) => DAY_NAMES[d]!));
}

/** `a Friday`, `a weekday`, `a Monday or Friday`. */
function aDay(days: readonly number[]): string {
  const kind = weekdays(days);
  if (kind === "weekdays") return "a weekday";
  if (kind === "weekends") return "a weekend day";
  const names = [...new Set(days)].sort((a, b) => a - b).map((d) => DAY_NAMES[d]!);
  return `a ${names.length <= 1 ? names.join("") : `${names.slice(0, -1).join(", ")} or ${names[names.length - 1]}`}`;
}

/** After "Every": `weekday`, `weekend day`, `day`, `Monday and Thursday`. */
function everyDays(days: readonly number[]): string {
  const kind = weekdays(days);
  return kind === "weekdays" ? "weekday" : kind === "weekends" ? "weekend day" : kind === "every day of the week" ? "day" : kind;
}

/** `the first Monday`, `the last Friday`, `Monday` for a BYDAY entry. */
function dayEntry(d: ByDay): string {
  return d.n === 0 ? DAY_NAMES[d.weekday]! : `the ${position(d.n)} ${DAY_NAMES[d.weekday]}`;
}

/**
 * The rule in words, with `start` supplying what dateutil takes from it (the time of day, the weekday of a
 * WEEKLY rule, the day of a MONTHLY one, the day and month of a YEARLY one). No zone and no COUNT/UNTIL: the
 * caller adds those (a preview ends with the zone; a job line shows what is left).
 */
export function describeRule(rule: Rule, start: number): string {
  const startDay = Math.floor(start / DAY_MS);
  const s = civilFromDays(startDay);
  const startWeekday = (weekdayOfDays(startDay) + 6) % 7;
  const startMinutes = Math.floor((start - startDay * DAY_MS) / MINUTE_MS);
  const defaults = !rule.byWeekNo && !rule.byYearDay && !rule.byMonthDay && !rule.byDay;
  const [one, many] = UNITS[rule.freq];
  const every = rule.interval === 1 ? `Every ${one}` : `Every ${rule.interval} ${many}`;
  const extra: string[] = [];
  let text: string;

  const plainDays = rule.byDay?.filter((d) => d.n === 0).map((d) => d.weekday) ?? [];
  const nthDays = rule.byDay?.filter((d) => d.n !== 0) ?? [];
  const setPos = rule.bySetPos;
  const allWeekdays = plainDays.length > 0 && nthDays.length === 0;

  switch (rule.freq) {
    case "MINUTELY":
    case "HOURLY": {
      text = every;
      if (rule.freq === "HOURLY") {
        const minutes = rule.byMinute ?? [startMinutes % 60];
        if (minutes.join() !== "0") text += ` at ${list(minutes.map((m) => `:${pad(m)}`))}`;
      } else if (rule.byMinute) {
        extra.push(`only at minute${rule.byMinute.length === 1 ? "" : "s"} ${list(rule.byMinute.map((m) => `:${pad(m)}`))}`);
      }
      if (rule.byHour) extra.push(`only from ${hourRanges(rule.byHour)}`);
      if (plainDays.length) extra.push(`only on ${weekdays(plainDays)}`);
      break;
    }
    case "DAILY": {
      if (plainDays.length && rule.interval === 1) {
        text = `Every ${everyDays(plainDays)}`;
      } else {
        text = every;
        if (plainDays.length) extra.push(`only on ${weekdays(plainDays)}`);
      }
      break;
    }
    case "WEEKLY": {
      const days = plainDays.length ? plainDays : defaults ? [startWeekday] : [];
      if (rule.interval === 1 && days.length) text = `Every ${everyDays(days)}`;
      else text = days.length ? `${every} on ${weekdays(days)}` : every;
      break;
    }
    case "MONTHLY": {
      const what = monthPart(rule, s.day, allWeekdays ? plainDays : [], nthDays);
      if (rule.byMonthDay && rule.byDay && !setPos) extra.push(`when that day is ${plainDays.length ? aDay(plainDays) : list(nthDays.map(dayEntry))}`);
      if (what === null && plainDays.length && !rule.byMonthDay && !setPos && rule.interval === 1) text = `Every ${everyDays(plainDays)}`;
      else if (what === null) {
        text = every;
        if (plainDays.length) extra.push(`only on ${weekdays(plainDays)}`);
      } else if (rule.interval === 1) text = `On ${what} of the month`;
      else text = `${every} on ${what}`;
      break;
    }
    case "YEARLY": {
      const months = rule.byMonth ?? (defaults ? [s.month] : null);
      const monthNames = months ? list(months.map((m) => MONTH_NAMES[m - 1]!)) : null;
      const monthDays = rule.byMonthDay ?? (defaults ? [s.day] : null);
      if (monthDays && monthNames && !rule.byDay && !setPos && !rule.byYearDay && !rule.byWeekNo) {
        const day = monthDays.length === 1 && monthDays[0]! > 0 ? String(monthDays[0]) : `the ${list(monthDays.map(monthDay))}`;
        text = `${every} on ${day} ${monthNames}`;
      } else if (nthDays.length && !rule.byMonthDay && !setPos && !rule.byYearDay && !rule.byWeekNo) {
        text = `${every} on ${list(nthDays.map(dayEntry))}${monthNames ? ` of ${monthNames}` : " of the year"}`;
      } else {
        text = every;
        if (rule.byYearDay) {
          const days = list(rule.byYearDay.map((d) => (d < 0 ? `${monthDay(d).replace(" day", "")} of the year` : String(d))));
          extra.push(`on day${rule.byYearDay.length === 1 ? "" : "s"} ${days} of the year`.replace(" of the year of the year", " of the year"));
        }
        if (rule.byWeekNo) extra.push(`in week${rule.byWeekNo.length === 1 ? "" : "s"} ${list(rule.byWeekNo.map(String))}`);
        if (rule.byMonthDay) extra.push(`on the ${list(rule.byMonthDay.map(monthDay))}`);
        if (rule.byDay) extra.push(`on ${plainDays.length ? weekdays(plainDays) : list(nthDays.map(dayEntry))}`);
        if (monthNames && rule.byMonth) extra.push(`in ${monthNames}`);
        if (setPos) extra.push(`only the ${list(setPos.map(position))} of each year's days`);
      }
      break;
    }
  }

  if (rule.freq !== "YEARLY" && rule.byMonth) extra.push(`only in ${list(rule.byMonth.map((m) => MONTH_NAMES[m - 1]!))}`);
  if ((rule.freq === "DAILY" || rule.freq === "WEEKLY" || rule.freq === "HOURLY" || rule.freq === "MINUTELY") && rule.byMonthDay) {
    extra.push(`only on the ${list(rule.byMonthDay.map(monthDay))}`);
  }
  if (rule.freq !== "YEARLY" && (rule.byYearDay || rule.byWeekNo)) {
    if (rule.byYearDay) extra.push(`only on day${rule.byYearDay.length === 1 ? "" : "s"} ${list(rule.byYearDay.map(String))} of the year`);
    if (rule.byWeekNo) extra.push(`only in week${rule.byWeekNo.length === 1 ? "" : "s"} ${list(rule.byWeekNo.map(String))}`);
  }
  // A day's BYSETPOS picks among that day's times: said as the times it keeps.
  if (setPos && rule.freq !== "MONTHLY" && rule.freq !== "YEARLY" && rule.freq !== "DAILY")
    extra.push(`only the ${list(setPos.map(position))} of each ${one}'s times`);

  if (rule.freq !== "HOURLY" && rule.freq !== "MINUTELY") {
    const hours = rule.byHour ?? [Math.floor(startMinutes / 60)];
    const minutes = rule.byMinute ?? [startMinutes % 60];
    let times = hours.flatMap((h) => minutes.map((m) => h * 60 + m)).sort((a, b) => a - b);
    if (setPos && rule.freq === "DAILY")
      times = [...new Set(setPos.map((p) => times.at(p > 0 ? p - 1 : p)).filter((t) => t !== undefined))].sort((a, b) => a - b);
    const gaps = new Set(times.slice(1).map((t, i) => t - times[i]!));
    const [first, last] = [hm(times[0]!), hm(times[times.length - 1]!)];
    if (times.length <= 6) text += ` at ${list(times.map(hm))}`;
    else if (setPos && gaps.size === 1) text += `, every ${[...gaps][0]} minutes from ${first} to ${last}`;
    else text += `, ${times.length} times a day from ${first} to ${last}`;
  }
  return extra.length ? `${text}, ${extra.join(", ")}` : text;
}

/**
 * What a MONTHLY rule picks in each month, as `the 15th`, `the last weekday`, `the first Monday`, `the 1st and
 * 15th`; null when its days are not a single such choice (then said part by part).
 */
function monthPart(rule: Rule, startDay: number, plain: readonly number[], nth: readonly ByDay[]): string | null {
  const setPos = rule.bySetPos;
  if (rule.byYearDay || rule.byWeekNo) return null;
  if (setPos && plain.length && !rule.byMonthDay) {
    const kind = weekdays(plain);
    const noun = kind === "weekdays" ? "weekday" : kind === "weekends" ? "weekend day" : plain.length === 1 ? DAY_NAMES[plain[0]!]! : `of ${kind}`;
    return `the ${list(setPos.map(position))} ${noun}`;
  }
  if (setPos) return null;
  if (rule.byMonthDay && !rule.byDay) return `the ${list(rule.byMonthDay.map(monthDay))}`;
  if (nth.length && !rule.byMonthDay) return list(nth.map(dayEntry));
  if (rule.byMonthDay && rule.byDay) return `the ${list(rule.byMonthDay.map(monthDay))}`;
  if (plain.length) return null;
  return `the ${ordinal(startDay)}`;
}

/** `09–17`, `09, 12 and 15–17`: hours as ranges. */
function hourRanges(hours: readonly number[]): string {
  const runs: [number, number][] = [];
  for (const h of [...hours].sort((a, b) => a - b)) {
    const last = runs[runs.length - 1];
    if (last && last[1] === h - 1) last[1] = h;
    else runs.push([h, h]);
  }
  return list(runs.map(([a, b]) => (a === b ? `${pad(a)}:00 to ${pad(a)}:59` : `${pad(a)}:00 to ${pad(b)}:59`)));
}
