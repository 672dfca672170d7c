/** @module Italian descriptions (`types.ts`): `nei giorni feriali alle 08:30`, `ogni 2 settimane il martedì alle 10:00`. */
import type { Unit } from "../lang";
import { dateAt, daysOfMonth, hm, isWeekend, isWorkdays, listWith, mondayFirst, type Said, type Speech, sharedDay } from "./types";

const DAYS = ["domenica", "lunedì", "martedì", "mercoledì", "giovedì", "venerdì", "sabato"];
const MONTHS = ["gennaio", "febbraio", "marzo", "aprile", "maggio", "giugno", "luglio", "agosto", "settembre", "ottobre", "novembre", "dicembre"];
const ORDINALS: Record<number, string> = { 1: "prim", 2: "second", 3: "terz", 4: "quart", 5: "quint", [-1]: "ultim", [-2]: "penultim" };
const UNITS: Record<Unit, [string, string]> = {
  minute: ["minuto", "minuti"],
  hour: ["ora", "ore"],
  day: ["giorno", "giorni"],
  week: ["settimana", "settimane"],
  month: ["mese", "mesi"],
  year: ["anno", "anni"],
};

const list = (items: readonly string[]) => listWith("e", items);
const every = (unit: Unit, n: number) => (n === 1 ? `ogni ${UNITS[unit][0]}` : `ogni ${n} ${UNITS[unit][1]}`);
/** Sunday is feminine: la domenica, l'ultima domenica. */
const the = (d: number) => `${d === 0 ? "la" : "il"} ${DAYS[d]}`;
/** `nei giorni feriali`, `nel fine settimana`, `il lunedì e il venerdì`. */
const onDays = (d: readonly number[]) => (isWorkdays(d) ? "nei giorni feriali" : isWeekend(d) ? "nel fine settimana" : list(mondayFirst(d).map(the)));

/**
 * `il 1 e il 15`, `l'ultimo giorno`, `il secondo e il quarto venerdì`. The reader takes the last day beside a
 * numbered one only as `il primo e l'ultimo giorno`.
 */
function monthPart(s: Said): string | null {
  if (s.monthDays) {
    const { numbered, last } = daysOfMonth(s.monthDays);
    if (!last) return list(numbered.map((d) => `il ${d}`));
    return numbered.length === 0 ? "l'ultimo giorno" : numbered.join() === "1" ? "il primo e l'ultimo giorno" : null;
  }
  const shared = sharedDay(s.positions!);
  if (shared === null) return null;
  const f = shared.day === 0;
  const ordinal = (n: number) => (n === -1 ? (f ? "l'ultima" : "l'ultimo") : `${f ? "la" : "il"} ${ORDINALS[n]}${f ? "a" : "o"}`);
  return `${list(shared.ns.map(ordinal))} ${shared.day === "workday" ? "giorno feriale" : DAYS[shared.day]}`;
}

export const speech: Speech = {
  lang: "it",
  say(s) {
    const parts: string[] = [];
    if (s.unit === "minute" || s.unit === "hour") {
      parts.push(every(s.unit, s.interval));
      if (s.window) parts.push(`tra le ${hm(s.window.from)} e le ${hm(s.window.to)}`);
      if (s.days) parts.push(onDays(s.days));
    } else if ((s.unit === "day" || s.unit === "week") && s.days && s.interval === 1) {
      parts.push(isWorkdays(s.days) || isWeekend(s.days) ? onDays(s.days) : `ogni ${list(mondayFirst(s.days).map((x) => DAYS[x]!))}`);
    } else if (s.unit === "day" || s.unit === "week") {
      parts.push(every(s.unit, s.interval));
      if (s.days) parts.push(onDays(s.days));
    } else if (s.unit === "month") {
      const part = monthPart(s);
      if (part === null) return null;
      parts.push(every("month", s.interval), part);
    } else {
      parts.push(every("year", s.interval), `il ${s.monthDays?.[0]} ${MONTHS[(s.month ?? 1) - 1]}`);
    }
    if (s.times.length > 0) parts.push(list(s.times.map((t) => `alle ${hm(t)}`)));
    return [...parts, this.ends(s)].join(" ").trim();
  },
  ends(s) {
    const parts: string[] = [];
    if (s.runs !== null) parts.push(`${s.runs} ${s.runs === 1 ? "volta" : "volte"}`);
    if (s.until) parts.push(`fino al ${dateAt(s.until)}`);
    if (s.start) parts.push(`a partire dal ${dateAt(s.start)}`);
    return parts.join(" ");
  },
};
