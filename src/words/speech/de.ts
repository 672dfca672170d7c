/** @module German descriptions (`types.ts`): `werktags um 08:30`, `alle 2 Wochen am Dienstag um 10:00`. */
import type { Unit } from "../lang";
import { dateAt, daysOfMonth, hm, isWeekend, isWorkdays, listWith, mondayFirst, type Said, type Speech, sharedDay } from "./types";

const DAYS = ["Sonntag", "Montag", "Dienstag", "Mittwoch", "Donnerstag", "Freitag", "Samstag"];
const MONTHS = ["Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September", "Oktober", "November", "Dezember"];
const ORDINALS: Record<number, string> = { 1: "ersten", 2: "zweiten", 3: "dritten", 4: "vierten", 5: "fünften", [-1]: "letzten", [-2]: "vorletzten" };
/** Each unit with its word for "every" (jeden Tag, jede Woche, jedes Jahr) and its plural. */
const UNITS: Record<Unit, [string, string]> = {
  minute: ["jede Minute", "Minuten"],
  hour: ["jede Stunde", "Stunden"],
  day: ["jeden Tag", "Tage"],
  week: ["jede Woche", "Wochen"],
  month: ["jeden Monat", "Monate"],
  year: ["jedes Jahr", "Jahre"],
};

const list = (items: readonly string[]) => listWith("und", items);
const every = (unit: Unit, n: number) => (n === 1 ? UNITS[unit][0] : `alle ${n} ${UNITS[unit][1]}`);
const names = (d: readonly number[]) => list(mondayFirst(d).map((x) => DAYS[x]!));
/** After an interval: `werktags`, `am Wochenende`, `am Montag und Freitag`. */
const onDays = (d: readonly number[]) => (isWorkdays(d) ? "werktags" : isWeekend(d) ? "am Wochenende" : `am ${names(d)}`);

/** `am 1. und 15.`, `am 1. und letzten Tag`, `am ersten und dritten Montag`. */
function monthPart(s: Said): string | null {
  if (s.monthDays) {
    const { numbered, last } = daysOfMonth(s.monthDays);
    return `am ${list([...numbered.map((d) => `${d}.`), ...(last ? ["letzten Tag"] : [])])}`;
  }
  const shared = sharedDay(s.positions!);
  return shared && `am ${list(shared.ns.map((n) => ORDINALS[n]!))} ${shared.day === "workday" ? "Werktag" : DAYS[shared.day]}`;
}

export const speech: Speech = {
  lang: "de",
  say(s) {
    const parts: string[] = [];
    if (s.unit === "minute" || s.unit === "hour") {
      parts.push(every(s.unit, s.interval));
      if (s.window) parts.push(`zwischen ${hm(s.window.from)} und ${hm(s.window.to)}`);
      if (s.days) parts.push(onDays(s.days));
    } else if ((s.unit === "day" || s.unit === "week") && s.days && s.interval === 1) {
      parts.push(isWorkdays(s.days) || isWeekend(s.days) ? onDays(s.days) : `jeden ${names(s.days)}`);
    } else if (s.unit === "day" || s.unit === "week") {
      parts.push(every(s.unit, s.interval));
      if (s.days) parts.push(onDays(s.days));
    } else if (s.unit === "month") {
      const part = monthPart(s);
      if (part === null) return null;
      parts.push(every("month", s.interval), part);
    } else {
      parts.push(every("year", s.interval), `am ${s.monthDays?.[0]}. ${MONTHS[(s.month ?? 1) - 1]}`);
    }
    if (s.times.length > 0) parts.push(`um ${list(s.times.map(hm))}`);
    return [...parts, this.ends(s)].join(" ").trim();
  },
  ends(s) {
    const parts: string[] = [];
    if (s.runs !== null) parts.push(`${s.runs}-mal`);
    if (s.until) parts.push(`bis ${dateAt(s.until)}`);
    if (s.start) parts.push(`ab ${dateAt(s.start)}`);
    return parts.join(" ");
  },
};
