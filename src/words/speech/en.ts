/** @module English descriptions (`types.ts`): `every weekday at 08:30`, `every 2 weeks on Tuesday at 10:00`. */
import type { Unit } from "../lang";
import { dateAt, daysOfMonth, hm, isWeekend, isWorkdays, listWith, mondayFirst, type Said, type Speech, sharedDay } from "./types";

const DAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
const ORDINALS: Record<number, string> = { 1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth", [-1]: "last", [-2]: "second-to-last" };

const list = (items: readonly string[]) => listWith("and", items);
const every = (unit: Unit, n: number) => (n === 1 ? `every ${unit}` : `every ${n} ${unit}s`);
const days = (d: readonly number[]) => (isWorkdays(d) ? "weekdays" : isWeekend(d) ? "weekends" : list(mondayFirst(d).map((x) => DAYS[x]!)));

/** `1st`, `2nd`, `3rd`, `15th`. */
function nth(n: number): string {
  const suffix = n % 100 >= 11 && n % 100 <= 13 ? "th" : (["th", "st", "nd", "rd"][n % 10] ?? "th");
  return `${n}${suffix}`;
}

/** `on the 1st and 15th`, `on the 1st and the last day`, `on the first and third Monday`, `on the last working day`. */
function monthPart(s: Said): string | null {
  if (s.monthDays) {
    const { numbered, last } = daysOfMonth(s.monthDays);
    return numbered.length === 0 ? "on the last day" : `on the ${list([...numbered.map(nth), ...(last ? ["the last day"] : [])])}`;
  }
  const shared = sharedDay(s.positions!);
  return shared && `on the ${list(shared.ns.map((n) => ORDINALS[n]!))} ${shared.day === "workday" ? "working day" : DAYS[shared.day]}`;
}

export const speech: Speech = {
  lang: "en",
  say(s) {
    const parts: string[] = [];
    if (s.unit === "minute" || s.unit === "hour") {
      parts.push(every(s.unit, s.interval));
      if (s.window) parts.push(`from ${hm(s.window.from)} to ${hm(s.window.to)}`);
      if (s.days) parts.push(`on ${days(s.days)}`);
    } else if ((s.unit === "day" || s.unit === "week") && s.days && s.interval === 1) {
      parts.push(isWorkdays(s.days) ? "every weekday" : isWeekend(s.days) ? "every weekend" : `every ${days(s.days)}`);
    } else if (s.unit === "day" || s.unit === "week") {
      parts.push(every(s.unit, s.interval));
      if (s.days) parts.push(`on ${days(s.days)}`);
    } else if (s.unit === "month") {
      const part = monthPart(s);
      if (part === null) return null;
      parts.push(every("month", s.interval), part);
    } else {
      parts.push(every("year", s.interval), `on ${s.monthDays?.[0]} ${MONTHS[(s.month ?? 1) - 1]}`);
    }
    if (s.times.length > 0) parts.push(`at ${list(s.times.map(hm))}`);
    return [...parts, this.ends(s)].join(" ").trim();
  },
  // A number before a date, and the end before the start: chrono reads "2026-05-26 10" as 10:00, and
  // "2026-05-26 until 2026-11-19" as one range.
  ends(s) {
    const parts: string[] = [];
    if (s.runs !== null) parts.push(`${s.runs} ${s.runs === 1 ? "time" : "times"}`);
    if (s.until) parts.push(`until ${dateAt(s.until)}`);
    if (s.start) parts.push(`starting ${dateAt(s.start)}`);
    return parts.join(" ");
  },
};
