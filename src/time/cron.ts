/**
 * @module Cron expressions: five fields and the macros, validated with sentences that name the field and
 * show an accepted form, then expanded by cron-parser. Parsed expressions are cached by their text.
 * cron-parser (with luxon) is loaded on first need, not at start-up: `await loadCron()` at the async entry
 * that will reach `parseCron` (validation, preview, an alarm with a due cron job, a zone change, a resume).
 */
import type { CronExpressionParser as Parser } from "cron-parser";
import { fail, ok, type Parsed } from "../result";
import { shown } from "../contracts/ids";

/** A parsed five-field expression: the raw field text (the DST and OR rules read it) and the value sets. */
export type CronSchedule = {
  /** The expression as given, trimmed. */
  readonly source: string;
  /** minute, hour, day-of-month, month, day-of-week, as written (macros expanded). */
  readonly fields: readonly [string, string, string, string, string];
  readonly minutes: readonly number[];
  readonly hours: readonly number[];
  /** Indexed 1–31. */
  readonly daysOfMonth: readonly boolean[];
  /** Indexed 1–12. */
  readonly months: readonly boolean[];
  /** Indexed 0–6, 0 = Sunday. */
  readonly daysOfWeek: readonly boolean[];
  /** Classic cron: a day-of-month or day-of-week field that starts with `*` does not restrict for the OR rule. */
  readonly domStar: boolean;
  readonly dowStar: boolean;
  /** The minute or hour field contains `*`, `-` or `/`: such expressions fire in both passes of a fall-back. */
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
};

type FieldSpec = { name: string; min: number; max: number; names?: readonly string[]; accepted: string };

const FIELDS: readonly FieldSpec[] = [
  { name: "minute", min: 0, max: 59, accepted: `use 0–59, e.g. "0", "*/15" or "0,30"` },
  { name: "hour", min: 0, max: 23, accepted: `use 0–23, e.g. "8", "9-17" or "*/2"` },
  { name: "day-of-month", min: 1, max: 31, accepted: `use 1–31, e.g. "1", "1,15" or "*/2"` },
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
    accepted: `use 0–7 (0 and 7 are Sunday) or SUN–SAT, e.g. "1-5" or "MON,WED,FRI"`,
  },
];

const FORMAT_HINT = `use 5 fields (minute hour day-of-month month day-of-week) such as "0 8 * * 1-5", or a macro such as "@daily"`;

const cache = new Map<string, Parsed<CronSchedule>>();

let parser: typeof Parser | undefined;

/**
 * Loads cron-parser once per isolate; `parseCron` then reads it synchronously. Evaluating it (with luxon)
 * costs ~5 ms of CPU, which a Worker would otherwise pay at every cold start, webhook included.
 */
export async function loadCron(): Promise<void> {
  // The parser's own file, not the package index: the index also loads CronFileParser, whose require("fs")
  // becomes a static import of node:fs in the bundle and makes workerd load its fs polyfill at start-up.
  parser ??= (await import("cron-parser/dist/CronExpressionParser.js")).CronExpressionParser;
}

/** Whether `loadCron` has run in this isolate. */
export const cronLoaded = (): boolean => parser !== undefined;

function cronParser(): typeof Parser {
  if (!parser) throw new Error("cron-parser is not loaded: await loadCron() before parseCron");
  return parser;
}

/**
 * Parses a cron expression (five fields, names, macros; no seconds, `L`, `W`, `#`, `?`, `H` or `@reboot`).
 * Whether it ever fires is a question for `nextOccurrence`, which needs a zone and an instant. Throws when
 * an expression not seen before reaches it before `loadCron()` has run.
 */
export function parseCron(input: string): Parsed<CronSchedule> {
  let hit = cache.get(input);
  if (!hit) {
    hit = parseUncached(input);
    if (cache.size >= 1000) cache.clear();
    cache.set(input, hit);
  }
  return hit;
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
    const expanded = MACROS[macro];
    if (!expanded) {
      return fail(`Unknown cron macro "${shown(source)}"; use one of @yearly, @annually, @monthly, @weekly, @daily, @midnight or @hourly.`);
    }
    text = expanded;
  }
  const parts = text.split(/\s+/);
  if (parts.length !== 5) {
    const seconds = parts.length === 6 ? " (seconds are not supported)" : "";
    return fail(`Invalid cron expression "${shown(source)}": it has ${parts.length} field${parts.length === 1 ? "" : "s"}${seconds}; ${FORMAT_HINT}.`);
  }
  for (let i = 0; i < 5; i++) {
    const problem = checkField(parts[i]!, FIELDS[i]!);
    if (problem) return fail(`Invalid cron expression "${shown(source)}": the ${FIELDS[i]!.name} field "${shown(parts[i]!)}" ${problem}; ${FIELDS[i]!.accepted}.`);
  }
  const fields = parts as unknown as CronSchedule["fields"];
  const expanded = expand(fields);
  if (!expanded.ok) return fail(`Invalid cron expression "${shown(source)}": ${expanded.error}; ${FORMAT_HINT}.`);
  return ok({
    source,
    fields,
    ...expanded.value,
    domStar: fields[2].startsWith("*"),
    dowStar: fields[4].startsWith("*"),
    interval: /[*\-/]/.test(fields[0]) || /[*\-/]/.test(fields[1]),
  });
}

/** Why a field is not acceptable, as the end of a sentence, or null when it is. */
function checkField(field: string, spec: FieldSpec): string | null {
  for (const item of field.split(",")) {
    const special = unsupported(item);
    if (special) return special;
    const m = /^(\*|[0-9A-Za-z]+)(?:-([0-9A-Za-z]+))?(?:\/([0-9A-Za-z]+))?$/.exec(item);
    if (!m) return "is not valid";
    const [, start, end, step] = m;
    if (start === "*" && end !== undefined) return "is not valid";
    const from = start === "*" ? spec.min : value(start!, spec);
    if (from === null) return outOfRange(start!, spec);
    if (end !== undefined) {
      const to = value(end, spec);
      if (to === null) return outOfRange(end, spec);
      if (to < from) return `has a backwards range ${start}-${end}`;
    }
    if (step !== undefined) {
      if (!/^\d+$/.test(step)) return `has a step "${step}" that is not a number`;
      const n = Number(step);
      if (n < 1 || n > spec.max - spec.min + 1) return `has a step of ${n}, outside 1–${spec.max - spec.min + 1}`;
    }
  }
  return null;
}

/** The Quartz and Jenkins extensions cron itself never had, each with its own reason. */
function unsupported(item: string): string | null {
  if (item === "?") return `uses "?", which is not supported (use "*")`;
  if (item.includes("#")) return `uses "#" (nth weekday of the month), which is not supported`;
  if (/^H(?:$|[(/])/i.test(item)) return `uses "H" (hashed times), which is not supported`;
  if (/^(?:\d+W|LW)$/i.test(item)) return `uses "W" (nearest weekday), which is not supported`;
  if (/^(?:L(?:-\d+)?|\d+L)$/i.test(item)) return `uses "L" (last), which is not supported`;
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

type Sets = Pick<CronSchedule, "minutes" | "hours" | "daysOfMonth" | "months" | "daysOfWeek">;

/**
 * Expands validated fields with cron-parser. Month and day-of-month are expanded apart: cron-parser refuses
 * a day that no listed month has (`31 4,6`), which is ours to report as "never fires", with a date in hand.
 */
function expand(f: CronSchedule["fields"]): Parsed<Sets> {
  // Outside the try: a parser not loaded is a bug to throw, not a sentence to cache for this expression.
  const cron = cronParser();
  try {
    const main = cron.parse(`${f[0]} ${f[1]} ${f[2]} * ${f[4]}`).fields;
    const month = cron.parse(`0 0 * ${f[3]} *`).fields.month;
    const daysOfMonth = new Array<boolean>(32).fill(false);
    for (const d of main.dayOfMonth.values) if (typeof d === "number") daysOfMonth[d] = true;
    const months = new Array<boolean>(13).fill(false);
    for (const m of month.values) months[m] = true;
    const daysOfWeek = new Array<boolean>(7).fill(false);
    for (const d of main.dayOfWeek.values) if (typeof d === "number") daysOfWeek[d % 7] = true;
    return ok({
      minutes: [...main.minute.values].sort((a, b) => a - b),
      hours: [...main.hour.values].sort((a, b) => a - b),
      daysOfMonth,
      months,
      daysOfWeek,
    });
  } catch (error) {
    return fail(error instanceof Error ? error.message : String(error));
  }
}
