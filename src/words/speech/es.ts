/** @module Spanish descriptions (`types.ts`): `entre semana a las 08:30`, `cada 2 semanas el martes a las 10:00`. */
import type { Unit } from "../lang";
import { dateAt, daysOfMonth, hm, isWeekend, isWorkdays, listWith, mondayFirst, type Said, type Speech, sharedDay } from "./types";

const DAYS = ["domingo", "lunes", "martes", "miércoles", "jueves", "viernes", "sábado"];
const MONTHS = ["enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "octubre", "noviembre", "diciembre"];
const ORDINALS: Record<number, string> = { 1: "primer", 2: "segundo", 3: "tercer", 4: "cuarto", 5: "quinto", [-1]: "último", [-2]: "penúltimo" };
const UNITS: Record<Unit, [string, string]> = {
  minute: ["minuto", "minutos"],
  hour: ["hora", "horas"],
  day: ["día", "días"],
  week: ["semana", "semanas"],
  month: ["mes", "meses"],
  year: ["año", "años"],
};

const list = (items: readonly string[]) => listWith("y", items);
const every = (unit: Unit, n: number) => (n === 1 ? `cada ${UNITS[unit][0]}` : `cada ${n} ${UNITS[unit][1]}`);
/** `entre semana`, `los fines de semana`, `el lunes y el viernes`. */
const onDays = (d: readonly number[]) =>
  isWorkdays(d) ? "entre semana" : isWeekend(d) ? "los fines de semana" : list(mondayFirst(d).map((x) => `el ${DAYS[x]}`));

/**
 * `el día 1 y el día 15`, `el último día`, `el segundo y cuarto sábado`. The reader takes the last day beside a
 * numbered one only as `el primer y el último día`.
 */
function monthPart(s: Said): string | null {
  if (s.monthDays) {
    const { numbered, last } = daysOfMonth(s.monthDays);
    if (!last) return list(numbered.map((d) => `el día ${d}`));
    return numbered.length === 0 ? "el último día" : numbered.join() === "1" ? "el primer y el último día" : null;
  }
  const shared = sharedDay(s.positions!);
  return shared && `el ${list(shared.ns.map((n) => ORDINALS[n]!))} ${shared.day === "workday" ? "día laborable" : DAYS[shared.day]}`;
}

export const speech: Speech = {
  lang: "es",
  say(s) {
    const parts: string[] = [];
    if (s.unit === "minute" || s.unit === "hour") {
      parts.push(every(s.unit, s.interval));
      if (s.window) parts.push(`entre ${hm(s.window.from)} y ${hm(s.window.to)}`);
      if (s.days) parts.push(onDays(s.days));
    } else if ((s.unit === "day" || s.unit === "week") && s.days && s.interval === 1) {
      parts.push(isWorkdays(s.days) || isWeekend(s.days) ? onDays(s.days) : `todos los ${list(mondayFirst(s.days).map((x) => DAYS[x]!))}`);
    } else if (s.unit === "day" || s.unit === "week") {
      parts.push(every(s.unit, s.interval));
      if (s.days) parts.push(onDays(s.days));
    } else if (s.unit === "month") {
      const part = monthPart(s);
      if (part === null) return null;
      parts.push(every("month", s.interval), part);
    } else {
      parts.push(every("year", s.interval), `el ${s.monthDays?.[0]} de ${MONTHS[(s.month ?? 1) - 1]}`);
    }
    if (s.times.length > 0) parts.push(list(s.times.map((t) => `a las ${hm(t)}`)));
    return [...parts, this.ends(s)].join(" ").trim();
  },
  ends(s) {
    const parts: string[] = [];
    if (s.runs !== null) parts.push(`${s.runs} ${s.runs === 1 ? "vez" : "veces"}`);
    if (s.until) parts.push(`hasta el ${dateAt(s.until)}`);
    if (s.start) parts.push(`desde el ${dateAt(s.start)}`);
    return parts.join(" ");
  },
};
