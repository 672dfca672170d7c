/** @module Portuguese descriptions (`types.ts`): `nos dias úteis às 08:30`, `a cada 2 semanas na terça-feira às 10:00`. */
import type { Unit } from "../lang";
import { dateAt, daysOfMonth, hm, isWeekend, isWorkdays, listWith, mondayFirst, type Said, type Speech, sharedDay } from "./types";

const DAYS = ["domingo", "segunda-feira", "terça-feira", "quarta-feira", "quinta-feira", "sexta-feira", "sábado"];
/** The weekdays are feminine, Saturday, Sunday and the working day masculine. */
const feminine = (d: number | "workday") => d !== "workday" && d !== 0 && d !== 6;
const MONTHS = ["janeiro", "fevereiro", "março", "abril", "maio", "junho", "julho", "agosto", "setembro", "outubro", "novembro", "dezembro"];
const ORDINALS: Record<number, string> = { 1: "primeir", 2: "segund", 3: "terceir", 4: "quart", 5: "quint", [-1]: "últim", [-2]: "penúltim" };
const UNITS: Record<Unit, [string, string]> = {
  minute: ["a cada minuto", "minutos"],
  hour: ["a cada hora", "horas"],
  day: ["todos os dias", "dias"],
  week: ["toda semana", "semanas"],
  month: ["todo mês", "meses"],
  year: ["todo ano", "anos"],
};

const list = (items: readonly string[]) => listWith("e", items);
const every = (unit: Unit, n: number) => (n === 1 ? UNITS[unit][0] : `a cada ${n} ${UNITS[unit][1]}`);
/** `nos dias úteis`, `nos fins de semana`, `na segunda-feira e na sexta-feira`. */
const onDays = (d: readonly number[]) =>
  isWorkdays(d) ? "nos dias úteis" : isWeekend(d) ? "nos fins de semana" : list(mondayFirst(d).map((x) => `${feminine(x) ? "na" : "no"} ${DAYS[x]}`));

/**
 * `no dia 1 e no dia 15`, `no último dia`, `na segunda e quarta sexta-feira`. The reader takes the last day beside a
 * numbered one only as `no primeiro e no último dia`.
 */
function monthPart(s: Said): string | null {
  if (s.monthDays) {
    const { numbered, last } = daysOfMonth(s.monthDays);
    if (!last) return list(numbered.map((d) => `no dia ${d}`));
    return numbered.length === 0 ? "no último dia" : numbered.join() === "1" ? "no primeiro e no último dia" : null;
  }
  const shared = sharedDay(s.positions!);
  if (shared === null) return null;
  const f = feminine(shared.day);
  return `${f ? "na" : "no"} ${list(shared.ns.map((n) => `${ORDINALS[n]}${f ? "a" : "o"}`))} ${shared.day === "workday" ? "dia útil" : DAYS[shared.day]}`;
}

export const speech: Speech = {
  lang: "pt",
  say(s) {
    const parts: string[] = [];
    if (s.unit === "minute" || s.unit === "hour") {
      parts.push(every(s.unit, s.interval));
      if (s.window) parts.push(`entre ${hm(s.window.from)} e ${hm(s.window.to)}`);
      if (s.days) parts.push(onDays(s.days));
    } else if ((s.unit === "day" || s.unit === "week") && s.days && s.interval === 1) {
      parts.push(isWorkdays(s.days) || isWeekend(s.days) ? onDays(s.days) : `toda ${list(mondayFirst(s.days).map((x) => DAYS[x]!))}`);
    } else if (s.unit === "day" || s.unit === "week") {
      parts.push(every(s.unit, s.interval));
      if (s.days) parts.push(onDays(s.days));
    } else if (s.unit === "month") {
      const part = monthPart(s);
      if (part === null) return null;
      parts.push(every("month", s.interval), part);
    } else {
      parts.push(every("year", s.interval), `em ${s.monthDays?.[0]} de ${MONTHS[(s.month ?? 1) - 1]}`);
    }
    if (s.times.length > 0) parts.push(list(s.times.map((t) => `às ${hm(t)}`)));
    return [...parts, this.ends(s)].join(" ").trim();
  },
  ends(s) {
    const parts: string[] = [];
    if (s.runs !== null) parts.push(`${s.runs} ${s.runs === 1 ? "vez" : "vezes"}`);
    if (s.until) parts.push(`até ${dateAt(s.until)}`);
    if (s.start) parts.push(`a partir de ${dateAt(s.start)}`);
    return parts.join(" ");
  },
};
