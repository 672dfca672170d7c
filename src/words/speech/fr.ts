/** @module French descriptions (`types.ts`): `en semaine à 08:30`, `toutes les 2 semaines le mardi à 10:00`. */
import type { Unit } from "../lang";
import { dateAt, daysOfMonth, hm, isWeekend, isWorkdays, listWith, mondayFirst, type Said, type Speech, sharedDay } from "./types";

const DAYS = ["dimanche", "lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi"];
const MONTHS = ["janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre", "novembre", "décembre"];
const ORDINALS: Record<number, string> = {
  1: "premier",
  2: "deuxième",
  3: "troisième",
  4: "quatrième",
  5: "cinquième",
  [-1]: "dernier",
  [-2]: "avant-dernier",
};
/** Each unit: "every" once (tous les jours), and with an interval (toutes les 2 semaines). */
const UNITS: Record<Unit, [string, string]> = {
  minute: ["toutes les minutes", "toutes les # minutes"],
  hour: ["toutes les heures", "toutes les # heures"],
  day: ["tous les jours", "tous les # jours"],
  week: ["toutes les semaines", "toutes les # semaines"],
  month: ["tous les mois", "tous les # mois"],
  year: ["tous les ans", "tous les # ans"],
};

const list = (items: readonly string[]) => listWith("et", items);
const every = (unit: Unit, n: number) => (n === 1 ? UNITS[unit][0] : UNITS[unit][1].replace("#", String(n)));
/** `en semaine`, `le week-end`, `le lundi et le vendredi`. */
const onDays = (d: readonly number[]) => (isWorkdays(d) ? "en semaine" : isWeekend(d) ? "le week-end" : list(mondayFirst(d).map((x) => `le ${DAYS[x]}`)));
const day = (d: number) => `le ${d === 1 ? "1er" : d}`;

/** `le 1er et le 15`, `le 1er et le dernier jour`, `le premier et le troisième jeudi`. */
function monthPart(s: Said): string | null {
  if (s.monthDays) {
    const { numbered, last } = daysOfMonth(s.monthDays);
    return list([...numbered.map(day), ...(last ? ["le dernier jour"] : [])]);
  }
  const shared = sharedDay(s.positions!);
  return shared && `${list(shared.ns.map((n) => `${n === -2 ? "l'" : "le "}${ORDINALS[n]}`))} ${shared.day === "workday" ? "jour ouvré" : DAYS[shared.day]}`;
}

export const speech: Speech = {
  lang: "fr",
  say(s) {
    const parts: string[] = [];
    if (s.unit === "minute" || s.unit === "hour") {
      parts.push(every(s.unit, s.interval));
      if (s.window) parts.push(`entre ${hm(s.window.from)} et ${hm(s.window.to)}`);
      if (s.days) parts.push(onDays(s.days));
    } else if ((s.unit === "day" || s.unit === "week") && s.days && s.interval === 1) {
      parts.push(isWorkdays(s.days) || isWeekend(s.days) ? onDays(s.days) : `tous les ${list(mondayFirst(s.days).map((x) => `${DAYS[x]}s`))}`);
    } else if (s.unit === "day" || s.unit === "week") {
      parts.push(every(s.unit, s.interval));
      if (s.days) parts.push(onDays(s.days));
    } else if (s.unit === "month") {
      const part = monthPart(s);
      if (part === null) return null;
      parts.push(every("month", s.interval), part);
    } else {
      parts.push(every("year", s.interval), `${day(s.monthDays?.[0] ?? 1)} ${MONTHS[(s.month ?? 1) - 1]}`);
    }
    if (s.times.length > 0) parts.push(list(s.times.map((t) => `à ${hm(t)}`)));
    return [...parts, this.ends(s)].join(" ").trim();
  },
  ends(s) {
    const parts: string[] = [];
    if (s.runs !== null) parts.push(`${s.runs} fois`);
    if (s.until) parts.push(`jusqu'au ${dateAt(s.until)}`);
    if (s.start) parts.push(`à partir du ${dateAt(s.start)}`);
    return parts.join(" ");
  },
};
