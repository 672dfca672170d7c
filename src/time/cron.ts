/**
 * @module Cron expressions (docs/time.md): five fields and the macros in Cronos's dialect (the .NET library Playa schedules with),
 * so that every expression a Playa store holds keeps working: ranges that wrap (`22-2`, `FRI-MON`, `NOV-FEB`)
 * with steps that continue across the wrap (`20-5/5` = 20, 25, 30, 4), `L`, `L-n`, `nW`, `LW`, `L-nW` in
 * day-of-month, `dL` and `d#n` in day-of-week, names and letters in either case, `?` as `*`. Each field is
 * checked and expanded here, with a sentence that names the field and shows an accepted form; cron-parser
 * reads none of the wrapping ranges, `W` or `L-n` (docs/design/0020-recurrence-rules.md). Parsed
 * expressions are cached by their text.
 */

import { shown } from "../contracts/ids";
import { fail, ok, type Parsed } from "../result";
import { remember } from "./memo";

/** A day-of-month form that depends on the month: `L`, `L-n`, `nW`, `LW`, `L-nW` (`offset` days before the last). */
export type MonthDayRule =
  | { readonly kind: "last"; readonly offset: number }
  | { readonly kind: "nearestWeekday"; readonly day: number }
  | { readonly kind: "lastNearestWeekday"; readonly offset: number };

/** A day-of-week form that depends on the month: `dL` (the last weekday d) or `d#n` (the n-th, 1–5). */
export type WeekdayRule = { readonly kind: "last"; readonly weekday: number } | { readonly kind: "nth"; readonly weekday: number; readonly n: number };

/** A parsed five-field expression: the raw field text (the DST and OR rules read it) and the value sets. */
export type CronSchedule = {
  /** The expression as given, trimmed. */
  readonly source: string;
  /** minute, hour, day-of-month, month, day-of-week, as written (macros expanded). */
  readonly fields: readonly [string, string, string, string, string];
  readonly minutes: readonly number[];
  readonly hours: readonly number[];
  /** Indexed 1–31 (all false when `monthDay` is set). */
  readonly daysOfMonth: readonly boolean[];
  /** Indexed 1–12. */
  readonly months: readonly boolean[];
  /** Indexed 0–6, 0 = Sunday (only the rule's weekday when `weekday` is set). */
  readonly daysOfWeek: readonly boolean[];
  /** `L`, `W` and their kin in day-of-month, else null. */
  readonly monthDay: MonthDayRule | null;
  /** `dL` or `d#n` in day-of-week, else null. */
  readonly weekday: WeekdayRule | null;
  /** Classic cron: a day-of-month or day-of-week field that starts with `*` (or `?`) does not restrict for the OR rule. */
  readonly domStar: boolean;
  readonly dowStar: boolean;
  /** The minute or hour field contains `*`, `?`, `-` or `/`: such expressions fire in both passes of a fall-back. */
  readonly interval: boolean;
};

const MACROS: Readonly<Record<string, string>> = {
  "@yearly": "0 0 1 1 *",
  "@annually": "0 0 1 1 *",
  "@monthly": "0 0 1 * *",
  "@weekly": "0 0 * * 0",
  "@daily": "0 0 * * *",
  "@midnight": "0 0 * * *",
  "@hourly": "0 * * * *",
  "@every_minute": "* * * * *",
};

type FieldSpec = { name: string; min: number; max: number; names?: readonly string[]; accepted: string };

const FIELDS: readonly FieldSpec[] = [
  { name: "minute", min: 0, max: 59, accepted: `use 0–59, e.g. "0", "*/15" or "0,30"` },
  { name: "hour", min: 0, max: 23, accepted: `use 0–23, e.g. "8", "9-17" or "*/2"` },
  { name: "day-of-month", min: 1, max: 31, accepted: `use 1–31, e.g. "1", "1,15", "*/2", "L" (the last day) or "15W" (the weekday nearest the 15th)` },
  {
    name: "month",
    min: 1,
    max: 12,
    names: ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"],
    accepted: `use 1–12 or JAN–DEC, e.g. "1", "JAN-MAR" or "*/3"`,
  },
  {
    name: "day-of-week",
    min: 0,
    max: 7,
    names: ["SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"],
    accepted: `use 0–7 (0 and 7 are Sunday) or SUN–SAT, e.g. "1-5", "MON,WED,FRI", "5L" (the last Friday) or "MON#1" (the first Monday)`,
  },
];

const FORMAT_HINT = `use 5 fields (minute hour day-of-month month day-of-week) such as "0 8 * * 1-5", or a macro such as "@daily"`;
const MACRO_NAMES = "@yearly, @annually, @monthly, @weekly, @daily, @midnight, @hourly or @every_minute";

const cache = new Map<string, Parsed<CronSchedule>>();

/**
 * Parses a cron expression: five fields in Cronos's dialect or a macro. Whether it ever fires is a question for
 * `nextOccurrence`, which needs a zone and an instant. Rejected with one sentence: a sixth field (seconds),
 * `H` (hashed times), `@reboot`, `@every_second`, values out of range, a step of 0, a misplaced `L`/`W`/`#`.
 */
export function parseCron(input: string): Parsed<CronSchedule> {
  return remember(cache, input, () => parseUncached(input));
}

function parseUncached(input: string): Parsed<CronSchedule> {
  const source = input.trim();
  if (source === "") return fail(`"cron" is empty; ${FORMAT_HINT}.`);
  let text = source;
  if (source.startsWith("@")) {
    const macro = source.toLowerCase();
    if (macro === "@reboot") {
      return fail(`"@reboot" is not supported: a chat has no start-up to run at; use a time such as "@daily" or "0 9 * * *".`);
    }
    if (macro === "@every_second") {
      return fail(`"@every_second" is not supported: a job runs at most once a minute; use "@every_minute" or "* * * * *".`);
    }
    const expanded = MACROS[macro];
    if (!expanded) return fail(`Unknown cron macro "${shown(source)}"; use one of ${MACRO_NAMES}.`);
    text = expanded;
  }
  const parts = text.split(/\s+/);
  if (parts.length !== 5) {
    const seconds = parts.length === 6 ? " (seconds are not supported)" : "";
    return fail(`Invalid cron expression "${shown(source)}": it has ${parts.length} field${parts.length === 1 ? "" : "s"}${seconds}; ${FORMAT_HINT}.`);
  }
  const fields = parts as unknown as CronSchedule["fields"];
  const sets: number[][] = [];
  let monthDay: MonthDayRule | null = null;
  let weekday: WeekdayRule | null = null;
  for (let i = 0; i < 5; i++) {
    const spec = FIELDS[i]!;
    const field = fields[i]!;
    if (i === 2) monthDay = readMonthDay(field);
    if (i === 4) weekday = readWeekday(field, spec);
    const read: Parsed<number[]> = i === 2 && monthDay !== null ? ok([]) : i === 4 && weekday !== null ? ok([weekday.weekday]) : readField(field, spec);
    if (!read.ok) return fail(`Invalid cron expression "${shown(source)}": the ${spec.name} field "${shown(field)}" ${read.error}; ${spec.accepted}.`);
    sets.push(read.value);
  }
  const table = (values: readonly number[], size: number): boolean[] => {
    const t = new Array<boolean>(size).fill(false);
    for (const v of values) t[v] = true;
    return t;
  };
  return ok({
    source,
    fields,
    minutes: [...new Set(sets[0])].sort((a, b) => a - b),
    hours: [...new Set(sets[1])].sort((a, b) => a - b),
    daysOfMonth: table(sets[2]!, 32),
    months: table(sets[3]!, 13),
    daysOfWeek: table(
      sets[4]!.map((d) => d % 7),
      7,
    ),
    monthDay,
    weekday,
    domStar: /^[*?]/.test(fields[2]),
    dowStar: /^[*?]/.test(fields[4]),
    interval: /[*?\-/]/.test(fields[0]) || /[*?\-/]/.test(fields[1]),
  });
}

/** `L`, `L-n` (n 0–30), `LW`, `L-nW`, `nW` (n 1–31), in either case; null when the field is none of them. */
function readMonthDay(field: string): MonthDayRule | null {
  const last = /^L(?:-(\d{1,2}))?(W)?$/i.exec(field);
  if (last) {
    const offset = last[1] === undefined ? 0 : Number(last[1]);
    if (offset > 30) return null;
    return last[2] === undefined ? { kind: "last", offset } : { kind: "lastNearestWeekday", offset };
  }
  const near = /^(\d{1,2})W$/i.exec(field);
  if (near && Number(near[1]) >= 1 && Number(near[1]) <= 31) return { kind: "nearestWeekday", day: Number(near[1]) };
  return null;
}

/** `dL` or `d#n` (d 0–7 or a name, n 1–5), in either case; null when the field is neither. */
function readWeekday(field: string, spec: FieldSpec): WeekdayRule | null {
  const m = /^([0-9]{1,2}|[A-Za-z]{3})(?:(L)|#(\d))$/i.exec(field);
  if (!m) return null;
  const day = value(m[1]!, spec);
  if (day === null) return null;
  if (m[2] !== undefined) return { kind: "last", weekday: day % 7 };
  const n = Number(m[3]);
  return n >= 1 && n <= 5 ? { kind: "nth", weekday: day % 7, n } : null;
}

/**
 * The values of a list of `*`, values, ranges (wrapping when the start is past the end) and steps, or why it
 * is not acceptable, as the end of a sentence.
 */
function readField(field: string, spec: FieldSpec): Parsed<number[]> {
  const values: number[] = [];
  const items = field.split(",");
  for (const item of items) {
    const special = misplaced(item, spec, items.length > 1);
    if (special) return fail(special);
    const m = /^(\*|\?|[0-9A-Za-z]+)(?:-([0-9A-Za-z]+))?(?:\/([0-9A-Za-z]+))?$/.exec(item);
    if (!m) return fail("is not valid");
    const [, start, end, stepText] = m;
    const star = start === "*" || start === "?";
    if (star && end !== undefined) return fail("is not valid");
    let step = 1;
    if (stepText !== undefined) {
      if (!/^\d+$/.test(stepText)) return fail(`has a step "${stepText}" that is not a number`);
      step = Number(stepText);
      if (step < 1 || step > spec.max - spec.min + 1) return fail(`has a step of ${step}, outside 1–${spec.max - spec.min + 1}`);
    }
    const from = star ? spec.min : value(start!, spec);
    if (from === null) return fail(outOfRange(start!, spec));
    let to = star || (end === undefined && stepText !== undefined) ? spec.max : from;
    if (end !== undefined) {
      const read = value(end, spec);
      if (read === null) return fail(outOfRange(end, spec));
      to = read;
    }
    values.push(...expandRange(from, to, step, spec));
  }
  return ok(values);
}

/**
 * `from`–`to` by `step`. A range whose start is past its end wraps, the step continuing across the wrap as
 * Cronos counts it: `20-5/5` in day-of-month is 20, 25, 30, then 4; `FRI-MON` is 5, 6, 0, 1. In day-of-week
 * 7 is Sunday: a range from 7 starts at Sunday, one to 7 ends there, and a wrap turns at Saturday.
 */
function expandRange(from: number, to: number, step: number, spec: FieldSpec): number[] {
  const out: number[] = [];
  const weekday = spec.name === "day-of-week";
  if (weekday && from === 7 && to < 7) from = 0;
  if (from <= to) {
    for (let v = from; v <= to; v += step) out.push(v);
    return out;
  }
  const high = weekday ? 6 : spec.max;
  let v = from;
  for (; v <= high; v += step) out.push(v);
  for (v -= high - spec.min + 1; v <= to; v += step) out.push(v);
  return out;
}

/** The extensions that are not for this place or not supported at all, each with its own reason. */
function misplaced(item: string, spec: FieldSpec, inList: boolean): string | null {
  if (/^H(?:$|[(/])/i.test(item)) return `uses "H" (hashed times), which is not supported`;
  const upper = item.toUpperCase();
  const monthDayForm = /^(?:L(?:-\d+)?W?|\d+W)$/.test(upper);
  const weekdayForm = /^(?:\d+|[A-Z]{3})(?:L|#\d+)$/.test(upper);
  if (spec.name === "day-of-month") {
    if (monthDayForm) {
      if (inList) return `has "${item}" in a list; "L" and "W" forms stand alone in the field`;
      return upper.startsWith("L-") ? `has "${item}", outside L-0 to L-30` : `has "${item}", outside 1W to 31W`;
    }
    if (weekdayForm || upper.includes("#")) return `uses "${item}", which belongs in the day-of-week field`;
    return null;
  }
  if (spec.name === "day-of-week") {
    if (weekdayForm) {
      if (inList) return `has "${item}" in a list; "L" and "#" forms stand alone in the field`;
      return upper.includes("#")
        ? `has "${item}"; "#" takes a week from 1 to 5 after a weekday, e.g. "MON#1"`
        : `has "${item}", which is not a weekday followed by L`;
    }
    if (upper === "L") return `uses "L" alone; write the last of a weekday, e.g. "5L" (the last Friday)`;
    if (monthDayForm) return `uses "${item}", which belongs in the day-of-month field`;
    return null;
  }
  if (monthDayForm || weekdayForm || upper === "L") return `uses "${item}"; "L", "W" and "#" belong in the day-of-month and day-of-week fields`;
  return null;
}

function value(token: string, spec: FieldSpec): number | null {
  if (/^\d+$/.test(token)) {
    const n = Number(token);
    return n >= spec.min && n <= spec.max ? n : null;
  }
  const index = spec.names?.indexOf(token.toUpperCase()) ?? -1;
  return index < 0 ? null : index + (spec.name === "month" ? 1 : 0);
}

function outOfRange(token: string, spec: FieldSpec): string {
  return /^\d+$/.test(token) ? `has ${token}, outside ${spec.min}–${spec.max}` : `has "${token}", which is not a ${spec.name} value`;
}
