/** @module Russian descriptions (`types.ts`): `по будням в 08:30`, `каждые 2 недели во вторник в 10:00`. */
import type { Unit } from "../lang";
import { dateAt, daysOfMonth, hm, isWeekend, isWorkdays, listWith, mondayFirst, type Said, type Speech, sharedDay } from "./types";

/** Each weekday as said after "в" and "каждый" (the accusative): в понедельник, в среду. */
const DAYS = ["воскресенье", "понедельник", "вторник", "среду", "четверг", "пятницу", "субботу"];
/** Feminine and neuter days take other forms of "every", "first" and "last". */
const GENDER: readonly ("m" | "f" | "n")[] = ["n", "m", "m", "f", "m", "f", "f"];
const MONTHS = ["января", "февраля", "марта", "апреля", "мая", "июня", "июля", "августа", "сентября", "октября", "ноября", "декабря"];
/** Ordinals in the accusative of each gender: первый, первую, первое. */
const ORDINALS: Record<number, Record<"m" | "f" | "n", string>> = {
  1: { m: "первый", f: "первую", n: "первое" },
  2: { m: "второй", f: "вторую", n: "второе" },
  3: { m: "третий", f: "третью", n: "третье" },
  4: { m: "четвертый", f: "четвертую", n: "четвертое" },
  5: { m: "пятый", f: "пятую", n: "пятое" },
  [-1]: { m: "последний", f: "последнюю", n: "последнее" },
  [-2]: { m: "предпоследний", f: "предпоследнюю", n: "предпоследнее" },
};
/** "Every" with one unit, and the unit after a number: 1 and 21 take one form, 2–4 another, the rest a third. */
const UNITS: Record<Unit, [string, [string, string, string]]> = {
  minute: ["каждую минуту", ["минуту", "минуты", "минут"]],
  hour: ["каждый час", ["час", "часа", "часов"]],
  day: ["каждый день", ["день", "дня", "дней"]],
  week: ["каждую неделю", ["неделю", "недели", "недель"]],
  month: ["каждый месяц", ["месяц", "месяца", "месяцев"]],
  year: ["каждый год", ["год", "года", "лет"]],
};

function plural(n: number, forms: readonly [string, string, string]): string {
  const [ten, hundred] = [n % 10, n % 100];
  return ten === 1 && hundred !== 11 ? forms[0] : ten >= 2 && ten <= 4 && (hundred < 12 || hundred > 14) ? forms[1] : forms[2];
}

const list = (items: readonly string[]) => listWith("и", items);
const every = (unit: Unit, n: number) => (n === 1 ? UNITS[unit][0] : `каждые ${n} ${plural(n, UNITS[unit][1])}`);
const onDay = (d: number) => `${d === 2 ? "во" : "в"} ${DAYS[d]}`;
/** `по будням`, `по выходным`, `в понедельник и в пятницу`. */
const onDays = (d: readonly number[]) => (isWorkdays(d) ? "по будням" : isWeekend(d) ? "по выходным" : list(mondayFirst(d).map(onDay)));
/** `каждый понедельник, среду и пятницу`: "every" once, in the first day's gender. */
function everyDays(d: readonly number[]): string {
  const [first, ...more] = mondayFirst(d);
  return list([`${{ m: "каждый", f: "каждую", n: "каждое" }[GENDER[first!]!]} ${DAYS[first!]}`, ...more.map((x) => DAYS[x]!)]);
}

/**
 * `1-го числа и 15-го числа`, `в последний день`, `в первый и третий понедельник`. The reader takes the last day
 * beside a numbered one only as `в первый и последний день`.
 */
function monthPart(s: Said): string | null {
  if (s.monthDays) {
    const { numbered, last } = daysOfMonth(s.monthDays);
    if (!last) return list(numbered.map((d) => `${d}-го числа`));
    return numbered.length === 0 ? "в последний день" : numbered.join() === "1" ? "в первый и последний день" : null;
  }
  const shared = sharedDay(s.positions!);
  if (shared === null) return null;
  const g = shared.day === "workday" ? "m" : GENDER[shared.day]!;
  const what = shared.day === "workday" ? "рабочий день" : DAYS[shared.day];
  return `${shared.day === 2 ? "во" : "в"} ${list(shared.ns.map((n) => ORDINALS[n]![g]))} ${what}`;
}

export const speech: Speech = {
  lang: "ru",
  say(s) {
    const parts: string[] = [];
    if (s.unit === "minute" || s.unit === "hour") {
      parts.push(every(s.unit, s.interval));
      if (s.window) parts.push(`с ${hm(s.window.from)} до ${hm(s.window.to)}`);
      if (s.days) parts.push(onDays(s.days));
    } else if ((s.unit === "day" || s.unit === "week") && s.days && s.interval === 1) {
      parts.push(isWorkdays(s.days) || isWeekend(s.days) ? onDays(s.days) : everyDays(s.days));
    } else if (s.unit === "day" || s.unit === "week") {
      parts.push(every(s.unit, s.interval));
      if (s.days) parts.push(onDays(s.days));
    } else if (s.unit === "month") {
      const part = monthPart(s);
      if (part === null) return null;
      parts.push(every("month", s.interval), part);
    } else {
      parts.push(every("year", s.interval), `${s.monthDays?.[0]} ${MONTHS[(s.month ?? 1) - 1]}`);
    }
    if (s.times.length > 0) parts.push(`в ${list(s.times.map(hm))}`);
    return [...parts, this.ends(s)].join(" ").trim();
  },
  ends(s) {
    const parts: string[] = [];
    if (s.runs !== null) parts.push(`${s.runs} ${plural(s.runs, ["раз", "раза", "раз"])}`);
    if (s.until) parts.push(`до ${dateAt(s.until)}`);
    if (s.start) parts.push(`с ${dateAt(s.start)}`);
    return parts.join(" ");
  },
};
