/**
 * @module Recurrence rules (docs/time.md): an RFC 5545 RRULE value and its `start` (DTSTART as a local date-time
 * in the chat's zone), read and checked with one sentence per problem that names the part. The parts are
 * those docs/time.md lists; SECONDLY, BYSECOND and anything else are refused. The rest of the code calls
 * it through time/rules.ts.
 */

import { shown } from "../contracts/ids";
import { fail, ok, type Parsed } from "../result";
import { daysInMonth, localMs } from "./civil";
import { remember } from "./memo";
import { SEARCH_DAYS } from "./next";

export type Freq = "YEARLY" | "MONTHLY" | "WEEKLY" | "DAILY" | "HOURLY" | "MINUTELY";

/** A BYDAY entry: the weekday (0 = Monday, as dateutil counts) and its position in the period, 0 for none. */
export type ByDay = { readonly weekday: number; readonly n: number };

/** Where a rule's UNTIL stops it: an instant (`…Z`), or a local date-time or date read in the chat's zone. */
export type Until =
  | { readonly kind: "instant"; readonly at: number }
  | { readonly kind: "local"; readonly local: number }
  | { readonly kind: "date"; readonly local: number };

/** A parsed RRULE value. Absent BY parts are null; dtstart supplies the defaults when the rule is expanded. */
export type Rule = {
  /** The value as given, without the `RRULE:` prefix, trimmed. */
  readonly source: string;
  readonly freq: Freq;
  readonly interval: number;
  readonly byMinute: readonly number[] | null;
  readonly byHour: readonly number[] | null;
  readonly byDay: readonly ByDay[] | null;
  readonly byMonthDay: readonly number[] | null;
  readonly byYearDay: readonly number[] | null;
  readonly byWeekNo: readonly number[] | null;
  readonly byMonth: readonly number[] | null;
  readonly bySetPos: readonly number[] | null;
  /** Week start, 0 = Monday (the default). */
  readonly wkst: number;
  readonly count: number | null;
  readonly until: Until | null;
};

/** A rule with its start: what a job's `{ rrule, start }` schedule holds once read. */
export type RuleSchedule = { readonly rule: Rule /** DTSTART, local epoch ms on a whole minute. */; readonly start: number };

export const WEEKDAYS = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"] as const;
const FREQS: readonly Freq[] = ["YEARLY", "MONTHLY", "WEEKLY", "DAILY", "HOURLY", "MINUTELY"];
/** runsLeft's range (docs/api.md#jobs), which COUNT becomes. */
export const MAX_COUNT = 1000;

const EXAMPLE = `such as "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU"`;

const cache = new Map<string, Parsed<Rule>>();

/**
 * Reads an RRULE value (`FREQ=…;…`, the `RRULE:` prefix allowed, names in either case). Refused with one
 * sentence: no FREQ, a part given twice, a value out of range, SECONDLY, BYSECOND, any part RFC 5545 or this
 * engine does not take (RDATE, BYEASTER, X-…), BYDAY positions outside MONTHLY and YEARLY, BYDAY mixing
 * weekdays with and without a position, a COUNT over 1000.
 */
export function parseRule(input: string): Parsed<Rule> {
  return remember(cache, input, () => parseUncached(input));
}

type Parts = Map<string, string>;

function parseUncached(input: string): Parsed<Rule> {
  const source = input
    .trim()
    .replace(/^RRULE:/i, "")
    .trim();
  const quoted = `"rrule" "${shown(source)}"`;
  if (source === "") return fail(`"rrule" is empty; give an RFC 5545 rule ${EXAMPLE}.`);
  if (/^(?:DTSTART|EXDATE|RDATE)\b/i.test(source) || /[\r\n]/.test(source)) {
    return fail(`${quoted} must be one RRULE value; give its start in "start", not as DTSTART, e.g. "rrule": "FREQ=DAILY", "start": "2026-12-08T09:00".`);
  }
  const parts: Parts = new Map();
  for (const piece of source.replace(/;$/, "").split(";")) {
    const eq = piece.indexOf("=");
    const name = (eq < 0 ? piece : piece.slice(0, eq)).trim().toUpperCase();
    if (eq < 0 || name === "") return fail(`${quoted} has "${shown(piece)}", which is not a NAME=VALUE part; write parts ${EXAMPLE}.`);
    if (parts.has(name)) return fail(`${quoted} gives ${name} twice; give each part once.`);
    parts.set(
      name,
      piece
        .slice(eq + 1)
        .trim()
        .toUpperCase(),
    );
  }
  for (const name of parts.keys()) {
    if (name === "BYSECOND") return fail(`${quoted} has BYSECOND, which is not supported: a job runs on whole minutes; leave it out.`);
    if (!KNOWN.has(name))
      return fail(
        `${quoted} has ${shown(name)}, which is not supported; ` +
          "use FREQ, INTERVAL, BYMINUTE, BYHOUR, BYDAY, BYMONTHDAY, BYYEARDAY, BYWEEKNO, BYMONTH, BYSETPOS, WKST, COUNT or UNTIL.",
      );
  }
  const freqText = parts.get("FREQ");
  if (freqText === undefined) return fail(`${quoted} has no FREQ; start it with FREQ=MINUTELY, HOURLY, DAILY, WEEKLY, MONTHLY or YEARLY.`);
  if (freqText === "SECONDLY") return fail(`${quoted} has FREQ=SECONDLY, which is not supported: a job runs at most once a minute; use FREQ=MINUTELY.`);
  const freq = FREQS.find((f) => f === freqText);
  if (!freq) return fail(`${quoted} has FREQ=${shown(freqText)}; use MINUTELY, HOURLY, DAILY, WEEKLY, MONTHLY or YEARLY.`);

  const numbers = (name: string, min: number, max: number, signed: boolean): Parsed<number[] | null> => {
    const text = parts.get(name);
    if (text === undefined) return ok(null);
    const out: number[] = [];
    for (const item of text.split(",")) {
      const n = /^[+-]?\d{1,4}$/.test(item) ? Number(item) : NaN;
      const fits = Number.isInteger(n) && Math.abs(n) >= min && Math.abs(n) <= max && (signed || n >= 0) && (n !== 0 || min === 0);
      if (!fits) {
        const range = signed ? `${min} to ${max} or -${max} to -${min}` : `${min} to ${max}`;
        return fail(`${quoted} has ${name}=${shown(text)}; each value must be from ${range}.`);
      }
      if (!out.includes(n)) out.push(n);
    }
    return ok(out.sort((a, b) => a - b));
  };

  const intervalText = parts.get("INTERVAL");
  const interval = intervalText === undefined ? 1 : /^\d{1,9}$/.test(intervalText) ? Number(intervalText) : NaN;
  if (!Number.isInteger(interval) || interval < 1)
    return fail(`${quoted} has INTERVAL=${shown(intervalText ?? "")}; use a whole number from 1 to ${MAX_INTERVAL[freq]}.`);
  // Bounded by the span it covers, not by a count: a rule must run within 5 years, as cron must (docs/time.md).
  if (interval > MAX_INTERVAL[freq])
    return fail(`${quoted} has INTERVAL=${interval}, more than 5 years at FREQ=${freq}; use at most ${MAX_INTERVAL[freq]}, or a larger FREQ.`);

  const lists: Record<string, number[] | null> = {};
  for (const [name, min, max, signed] of NUMBER_PARTS) {
    const read = numbers(name, min, max, signed);
    if (!read.ok) return read;
    lists[name] = read.value;
  }

  const byDay = readByDay(parts.get("BYDAY"), freq, quoted);
  if (!byDay.ok) return byDay;

  let wkst = 0;
  const wkstText = parts.get("WKST");
  if (wkstText !== undefined) {
    wkst = WEEKDAYS.indexOf(wkstText as (typeof WEEKDAYS)[number]);
    if (wkst < 0) return fail(`${quoted} has WKST=${shown(wkstText)}; use MO, TU, WE, TH, FR, SA or SU.`);
  }

  let count: number | null = null;
  const countText = parts.get("COUNT");
  if (countText !== undefined) {
    count = /^\d{1,7}$/.test(countText) ? Number(countText) : NaN;
    if (!(count >= 1 && count <= MAX_COUNT))
      return fail(`${quoted} has COUNT=${shown(countText)}; use a whole number from 1 to ${MAX_COUNT} (a job's runs left).`);
  }

  let until: Until | null = null;
  const untilText = parts.get("UNTIL");
  if (untilText !== undefined) {
    const read = readUntil(untilText);
    if (!read)
      return fail(
        `${quoted} has UNTIL=${shown(untilText)}; use a date such as 20261231, a local time such as 20261231T180000, or UTC such as 20261231T170000Z.`,
      );
    until = read;
  }

  return ok({
    source,
    freq,
    interval,
    byMinute: lists.BYMINUTE!,
    byHour: lists.BYHOUR!,
    byDay: byDay.value,
    byMonthDay: lists.BYMONTHDAY!,
    byYearDay: lists.BYYEARDAY!,
    byWeekNo: lists.BYWEEKNO!,
    byMonth: lists.BYMONTH!,
    bySetPos: lists.BYSETPOS!,
    wkst,
    count,
    until,
  });
}

/** The largest INTERVAL of each FREQ: as many periods as fit in the 5 years (1830 days) a rule must run within. */
export const MAX_INTERVAL: Readonly<Record<Freq, number>> = {
  YEARLY: 5,
  MONTHLY: 60,
  WEEKLY: Math.floor(SEARCH_DAYS / 7),
  DAILY: SEARCH_DAYS,
  HOURLY: SEARCH_DAYS * 24,
  MINUTELY: SEARCH_DAYS * 1440,
};

/** The parts that are lists of numbers: name, smallest and largest magnitude, whether negatives count from the end. */
const NUMBER_PARTS: readonly [string, number, number, boolean][] = [
  ["BYMINUTE", 0, 59, false],
  ["BYHOUR", 0, 23, false],
  ["BYMONTHDAY", 1, 31, true],
  ["BYYEARDAY", 1, 366, true],
  ["BYWEEKNO", 1, 53, true],
  ["BYMONTH", 1, 12, false],
  ["BYSETPOS", 1, 366, true],
];

const KNOWN = new Set([
  "FREQ",
  "INTERVAL",
  "BYMINUTE",
  "BYHOUR",
  "BYDAY",
  "BYMONTHDAY",
  "BYYEARDAY",
  "BYWEEKNO",
  "BYMONTH",
  "BYSETPOS",
  "WKST",
  "COUNT",
  "UNTIL",
]);

function readByDay(text: string | undefined, freq: Freq, quoted: string): Parsed<ByDay[] | null> {
  if (text === undefined) return ok(null);
  const out: ByDay[] = [];
  for (const item of text.split(",")) {
    const m = /^([+-]?\d{1,2})?(MO|TU|WE|TH|FR|SA|SU)$/.exec(item);
    const n = m?.[1] === undefined ? 0 : Number(m[1]);
    if (!m || (m[1] !== undefined && n === 0))
      return fail(`${quoted} has BYDAY=${shown(text)}; use weekdays MO–SU, with a position in MONTHLY or YEARLY rules such as 1MO or -1FR.`);
    if (n !== 0 && freq !== "MONTHLY" && freq !== "YEARLY")
      return fail(
        `${quoted} has BYDAY=${shown(text)}: a position such as ${shown(item)} needs FREQ=MONTHLY or YEARLY; ` +
          `use plain weekdays such as ${item.replace(/^[+-]?\d+/, "")}.`,
      );
    const limit = freq === "MONTHLY" ? 5 : 53;
    if (Math.abs(n) > limit) return fail(`${quoted} has BYDAY=${shown(text)}; a position must be from 1 to ${limit} or -${limit} to -1 in a ${freq} rule.`);
    const weekday = WEEKDAYS.indexOf(m[2] as (typeof WEEKDAYS)[number]);
    if (!out.some((d) => d.weekday === weekday && d.n === n)) out.push({ weekday, n });
  }
  // dateutil requires such a day to match both kinds (so nothing fires) where RFC 5545 takes either; neither reading is safe to guess.
  if (out.some((d) => d.n === 0) && out.some((d) => d.n !== 0)) {
    return fail(`${quoted} has BYDAY=${shown(text)}, which mixes weekdays with and without a position; write two jobs, or positions for every day.`);
  }
  return ok(out);
}

/** `yyyyMMdd`, `yyyyMMddTHHmmss`, or either time with `Z`. */
function readUntil(text: string): Until | null {
  const m = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})(Z)?)?$/.exec(text);
  if (!m) return null;
  const [, y, mo, d, hh, mi, ss, z] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  if (hh === undefined) return { kind: "date", local: localMs(year, month, day) };
  if (Number(hh) > 23 || Number(mi) > 59 || Number(ss) > 59) return null;
  const local = localMs(year, month, day, Number(hh), Number(mi), Number(ss));
  return z ? { kind: "instant", at: local } : { kind: "local", local };
}

const START = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2}))?$/;

/**
 * Reads `start`: `yyyy-MM-dd[T| ]HH:mm`, a local date-time in the chat's zone (a date alone = 09:00), as local
 * epoch ms. Not an instant: a zone change keeps it as local time.
 */
export function parseStart(input: string, zone: string): Parsed<number> {
  const text = input.trim();
  const m = START.exec(text);
  const form = `use a local date and time such as 2026-12-08T10:00 (read in ${zone}) or a date such as 2026-12-08 (09:00)`;
  if (!m) {
    const offset = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:[Zz]|[+-]\d{2}:\d{2})$/.test(text);
    if (offset) return fail(`"start" is a local time in ${zone}, without an offset; ${form}; got "${shown(input)}".`);
    return fail(`"start" must be a local date and time; ${form}; got "${shown(input)}".`);
  }
  const [, y, mo, d, hh, mi] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = hh === undefined ? 9 : Number(hh);
  const minute = mi === undefined ? 0 : Number(mi);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month) || hour > 23 || minute > 59) {
    return fail(`"start" is not a real date and time: "${shown(input)}"; ${form}.`);
  }
  return ok(localMs(year, month, day, hour, minute));
}

/** The RRULE value without COUNT and UNTIL, parts in their given order: what a job stores. */
export function withoutEnds(rule: Rule): string {
  return rule.source
    .replace(/;$/, "")
    .split(";")
    .filter((p) => !/^\s*(?:COUNT|UNTIL)\s*=/i.test(p))
    .join(";");
}

/** The start as `yyyy-MM-ddTHH:mm`. */
export function formatStart(start: number): string {
  const d = new Date(start);
  return d.toISOString().slice(0, 16);
}
