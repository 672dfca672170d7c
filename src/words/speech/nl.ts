/** @module Dutch descriptions (`types.ts`): `op werkdagen om 08:30`, `elke 2 weken op dinsdag om 10:00`. */
import type { Unit } from "../lang";
import { dateAt, daysOfMonth, hm, isWeekend, isWorkdays, listWith, mondayFirst, type Said, type Speech, sharedDay } from "./types";

const DAYS = ["zondag", "maandag", "dinsdag", "woensdag", "donderdag", "vrijdag", "zaterdag"];
const MONTHS = ["januari", "februari", "maart", "april", "mei", "juni", "juli", "augustus", "september", "oktober", "november", "december"];
const ORDINALS: Record<number, string> = { 1: "eerste", 2: "tweede", 3: "derde", 4: "vierde", 5: "vijfde", [-1]: "laatste", [-2]: "voorlaatste" };
/** Each unit: "every" once (elke dag, elk uur), and its plural after a number (elke 2 weken, elke 2 uur). */
const UNITS: Record<Unit, [string, string]> = {
  minute: ["elke minuut", "minuten"],
  hour: ["elk uur", "uur"],
  day: ["elke dag", "dagen"],
  week: ["elke week", "weken"],
  month: ["elke maand", "maanden"],
  year: ["elk jaar", "jaar"],
};

const list = (items: readonly string[]) => listWith("en", items);
const every = (unit: Unit, n: number) => (n === 1 ? UNITS[unit][0] : `elke ${n} ${UNITS[unit][1]}`);
const names = (d: readonly number[]) => list(mondayFirst(d).map((x) => DAYS[x]!));
/** `op werkdagen`, `in het weekend`, `op maandag en vrijdag`. */
const onDays = (d: readonly number[]) => (isWorkdays(d) ? "op werkdagen" : isWeekend(d) ? "in het weekend" : `op ${names(d)}`);

/** `op de 1e en 15e`, `op de 1e en de laatste dag`, `op de eerste en derde maandag`. */
function monthPart(s: Said): string | null {
  if (s.monthDays) {
    const { numbered, last } = daysOfMonth(s.monthDays);
    return numbered.length === 0 ? "op de laatste dag" : `op de ${list([...numbered.map((d) => `${d}e`), ...(last ? ["de laatste dag"] : [])])}`;
  }
  const shared = sharedDay(s.positions!);
  return shared && `op de ${list(shared.ns.map((n) => ORDINALS[n]!))} ${shared.day === "workday" ? "werkdag" : DAYS[shared.day]}`;
}

export const speech: Speech = {
  lang: "nl",
  say(s) {
    const parts: string[] = [];
    if (s.unit === "minute" || s.unit === "hour") {
      parts.push(every(s.unit, s.interval));
      if (s.window) parts.push(`tussen ${hm(s.window.from)} en ${hm(s.window.to)}`);
      if (s.days) parts.push(onDays(s.days));
    } else if ((s.unit === "day" || s.unit === "week") && s.days && s.interval === 1) {
      parts.push(isWorkdays(s.days) || isWeekend(s.days) ? onDays(s.days) : `elke ${names(s.days)}`);
    } else if (s.unit === "day" || s.unit === "week") {
      parts.push(every(s.unit, s.interval));
      if (s.days) parts.push(onDays(s.days));
    } else if (s.unit === "month") {
      const part = monthPart(s);
      if (part === null) return null;
      parts.push(every("month", s.interval), part);
    } else {
      parts.push(every("year", s.interval), `op ${s.monthDays?.[0]} ${MONTHS[(s.month ?? 1) - 1]}`);
    }
    if (s.times.length > 0) parts.push(`om ${list(s.times.map(hm))}`);
    return [...parts, this.ends(s)].join(" ").trim();
  },
  ends(s) {
    const parts: string[] = [];
    if (s.runs !== null) parts.push(`${s.runs} keer`);
    if (s.until) parts.push(`tot ${dateAt(s.until)}`);
    if (s.start) parts.push(`vanaf ${dateAt(s.start)}`);
    return parts.join(" ");
  },
};
