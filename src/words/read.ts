/**
 * @module The one way from words to a schedule (docs/time.md#words-when, issue 24 item 5): what `/remind` and
 * `/every` read, and what `POST /admin/preview { when, language? }`, the page's Schedule field and the Mini App
 * take. A phrase that says a repetition (every, weekdays, each, twice a day, their translations) is read as
 * `/every` reads it (the phrase reader, `phrase/`, in the phrase tables' languages) and becomes the simplest
 * schedule that says it (`form.ts`); any other phrase as `/remind` reads it (`when.ts`: chrono-node, ISO forms,
 * durations) and becomes one time. A written form is taken as it is: a quoted or bare cron or macro, an RRULE (with an
 * optional DTSTART), an ISO `at` or duration. With `recurring` (`/every`) a phrase is a repetition whether it
 * says so or not (`Montag um 9`). Errors come as one sentence (`sentences.ts`). Pure.
 */

import { DAY_MS, HOUR_MS } from "../time/civil";
import { parseCron } from "../time/cron";
import { nextOccurrence } from "../time/next";
import { neverFires } from "../time/preview";
import { parseRuleSchedule } from "../time/rules";
import { NO_ENDS, type Timing } from "../time/schedule";
import { instantOfWall, parseZone, toLocal } from "../time/zone";
import { readEnds } from "./ends";
import { localText, scheduleOf } from "./form";
import { type Lang, langOf, langsFor, tableOf, type Unit } from "./lang";
import { emptyPlan, type Plan, type PlanProblem, type PlanRead, readPlan } from "./phrase";
import type { ScheduleProblem } from "./problem";
import { scheduleProblemText } from "./sentences";
import { ISO_AT, ISO_DURATION, readDateStart, readWhen, restAfter, SHORT_DELAY, type WhenRead } from "./when";

export type ReadScheduleOptions = {
  /** The chat's IANA zone: phrases are read in it, and a rule's start is local time there. */
  zone: string;
  now: number;
  /** A BCP 47 tag (Telegram's `language_code`): its language is read first and answers the errors. */
  language?: string | null;
  /** The text is a repetition whether or not it says so (`/every Montag um 9`). */
  recurring?: boolean;
  /** The text is only the schedule (the page's field): anything after it is an error. */
  whole?: boolean;
};

/** A schedule read (`time/schedule.ts`: the value a job is made with, its ends those said), and where it was in the text. */
export type ScheduleRead = Timing & {
  /** The zone it was read in: the one asked for, or the one a description named after it (`… (Asia/Tokyo)`). */
  zone: string;
  /** The part of the text read as the schedule, as typed. */
  phrase: string;
  /** What follows it: a command's text. */
  rest: string;
  /** A one-off whose wall time a DST change moved (`2026-03-29 02:30 does not exist in Europe/Berlin; runs at 03:30`). */
  note: string | null;
  /** The language a phrase was read in; null for a written form (cron, RRULE, ISO). */
  language: Lang | null;
};

export type { ScheduleProblem };

export type ScheduleResult = { ok: true; value: ScheduleRead } | { ok: false; problem: ScheduleProblem; message: string };

type Read = { ok: true; value: ScheduleRead } | { ok: false; problem: ScheduleProblem };

/** The text before a zone named in parentheses at its end, and that zone; null when it ends with none. */
function zoneAtEnd(text: string): { text: string; zone: string } | null {
  const m = /\s+\(([^()\s]+)\)$/.exec(text);
  const zone = m ? parseZone(m[1]!) : null;
  return zone?.ok ? { text: text.slice(0, m!.index), zone: zone.value } : null;
}

/** A zone in parentheses, as a description ends (`every day at 09:00 (Europe/Berlin)`). */
const ZONE_AFTER = /^\(([A-Za-z][\w+-]*(?:\/[\w+-]+)*)\)(?=\s|$)/;

/**
 * Reads a schedule at the start of `text`; the rest is the text that follows it. A description ends with its zone
 * in parentheses (docs/time.md#descriptions): a field that is only the schedule (`whole`) is read in the zone it
 * names; after a command's schedule, the chat's own zone there is passed over.
 */
export async function readSchedule(text: string, options: ReadScheduleOptions): Promise<ScheduleResult> {
  const trimmed = text.trim();
  const named = options.whole ? zoneAtEnd(trimmed) : null;
  if (named) return readSchedule(named.text, { ...options, zone: named.zone });
  const read = await readAny(trimmed, options);
  if (read.ok) {
    const zone = ZONE_AFTER.exec(read.value.rest);
    if (zone && zone[1] === options.zone) read.value.rest = restAfter(read.value.rest, zone[0]);
    // A cron or rule shown as written, with the end a description says after it (`0 0 */2 * 1 until 2027-03-31`).
    const ends = options.whole && read.value.rest !== "" && read.value.schedule.type !== "at" ? await readEnds(read.value.rest, options) : null;
    if (ends !== null && read.value.language === null) return { ok: true, value: { ...read.value, ends, rest: "" } };
    if (!options.whole || read.value.rest === "") return read;
    const problem: ScheduleProblem = { kind: "unreadable", phrase: read.value.rest, recurring: read.value.schedule.type !== "at" };
    return { ok: false, problem, message: await scheduleProblemText(problem, options) };
  }
  return { ok: false, problem: read.problem, message: await scheduleProblemText(read.problem, options) };
}

/** A quoted cron (straight or curly quotes), a macro, or five unquoted fields (digits, `* , - / ?` and `L W #`). */
const QUOTED = /^["“”'‘’]([^"“”'‘’]+)["“”'‘’](?=\s|$)/;
const MACRO = /^@[A-Za-z]+(?=\s|$)/;
const BARE_CRON = /^(?:[\d*,/?#LW-]+\s+){4}[\d*,/?#LW-]+(?=\s|$)/;
/** An RRULE value (the `RRULE:` prefix optional), after an optional `DTSTART[;TZID=…]:yyyyMMddTHHmm[ss]` line. */
const RRULE = new RegExp(
  String.raw`^(?:DTSTART(?:;TZID=[^:\s]+)?:(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(?:\d{2})?Z?\s+)?` +
    String.raw`(?:RRULE:)?((?:[A-Z]+=[^;\s]+;)*FREQ=[A-Z]+(?:;[A-Z]+=[^;\s]+)*)(?=\s|$)`,
  "i",
);

async function readAny(text: string, o: ReadScheduleOptions): Promise<Read> {
  if (text === "") return { ok: false, problem: { kind: "empty" } };
  const written = await readWritten(text, o);
  if (written) return written;
  const prefer = langOf(o.language ?? undefined);
  const langs = langsFor(text, prefer);
  if (o.recurring) {
    const duration = durationPlan(text);
    if (duration) return fromPlan(text, duration.plan, duration.length, null, o);
    if (ISO_AT.test(text)) return { ok: false, problem: { kind: "once", phrase: ISO_AT.exec(text)![0] } };
    return readPhrase(text, langs, o, true);
  }
  // English (or the language asked for) first, then the one-off readers, then the other tables: a one-off in
  // English loads no other table.
  const [first, ...others] = langs;
  if (first) {
    const repetition = await readPhrase(text, [first], o, false);
    if (repetition.ok || repetition.problem.kind !== "unreadable") return repetition;
  }
  const once = await readWhen(text, o.zone, o.now);
  if (once.ok) {
    const { instant, phrase, rest, note } = first ? await withDayPart(text, once.value, first, o) : once.value;
    return { ok: true, value: { schedule: { type: "at", at: instant }, ends: NO_ENDS, zone: o.zone, phrase, rest, note, language: null } };
  }
  if (once.problem.kind !== "unreadable") return { ok: false, problem: once.problem };
  const repetition = await readPhrase(text, others, o, false, false);
  if (repetition.ok || repetition.problem.kind !== "unreadable") return repetition;
  return { ok: false, problem: { ...once.problem, recurring: false } };
}

/**
 * `morgen früh`, `mañana por la tarde`, `amanhã de manhã`, `demain nuit`: chrono reads the day and leaves the part
 * of the day as text (the reminder would come at 09:00 with "früh" in it). A day without a time of its own
 * followed by a part of the day the language's table knows takes that part's hour, the one `/every` takes.
 */
async function withDayPart(text: string, read: WhenRead, lang: Lang, o: ReadScheduleOptions): Promise<WhenRead> {
  if (/\d/.test(read.phrase) || read.rest === "") return read;
  const table = await tableOf(lang);
  const rest = read.rest.toLowerCase();
  const part = Object.keys(table.dayParts)
    .filter((word) => rest === word || rest.startsWith(`${word} `))
    .sort((a, b) => b.length - a.length)[0];
  if (part === undefined) return read;
  const day = Math.floor(toLocal(o.zone, read.instant) / DAY_MS) * DAY_MS;
  const instant = instantOfWall(o.zone, day + table.dayParts[part]![0] * HOUR_MS);
  if (instant <= o.now) return read;
  const phrase = text.slice(0, text.length - read.rest.length + part.length);
  return { ...read, instant, phrase, rest: restAfter(text, phrase) };
}

/**
 * Cron (quoted, bare, a macro) or an RRULE, as written, read once here: a cron that does not read or never fires
 * is a `cron` problem with the cron rules' sentence, a rule that does not read a `rule` problem with the rule
 * engine's.
 */
async function readWritten(text: string, o: ReadScheduleOptions): Promise<Read | null> {
  const cron = QUOTED.exec(text) ?? MACRO.exec(text) ?? BARE_CRON.exec(text);
  if (cron) {
    const expression = (cron[1] ?? cron[0]).trim();
    const rest = restAfter(text, cron[0]);
    const parsed = parseCron(expression);
    if (!parsed.ok) return { ok: false, problem: { kind: "cron", phrase: expression, sentence: parsed.error, rest } };
    if (nextOccurrence(parsed.value, o.zone, o.now) === null)
      return { ok: false, problem: { kind: "cron", phrase: expression, sentence: neverFires(parsed.value), rest } };
    const value = { schedule: { type: "cron", cron: parsed.value }, ends: NO_ENDS, zone: o.zone, phrase: cron[0], rest, note: null, language: null } as const;
    return { ok: true, value };
  }
  const rule = RRULE.exec(text);
  if (rule) {
    const [, y, mo, d, h, mi, value] = rule;
    // No DTSTART: today at 09:00 there (a date alone means 09:00).
    const start = y !== undefined ? `${y}-${mo}-${d}T${h}:${mi}` : localText(Math.floor(toLocal(o.zone, o.now) / DAY_MS) * DAY_MS + 9 * HOUR_MS);
    const rest = restAfter(text, rule[0]);
    const parsed = parseRuleSchedule({ rrule: value!.toUpperCase(), start }, o.zone);
    if (!parsed.ok) return { ok: false, problem: { kind: "rule", phrase: rule[0], sentence: parsed.error, rest } };
    const read = { schedule: { type: "rule", rule: parsed.value }, ends: NO_ENDS, zone: o.zone, phrase: rule[0], rest, note: null, language: null } as const;
    return { ok: true, value: read };
  }
  return null;
}

const DURATION_UNITS: Record<string, Unit> = { w: "week", d: "day", h: "hour", m: "minute", min: "minute" };

/** `/every 20m`, `/every PT90M`, `/every 1h30m`, `/every 1h 30m`: a duration is the interval. */
function durationPlan(text: string): { plan: Plan; length: number } | null {
  const short = SHORT_DELAY.exec(text);
  const iso = short ? null : ISO_DURATION.exec(text);
  const written = short?.[0] ?? iso?.[0];
  if (!written) return null;
  const parts = [...written.toLowerCase().matchAll(iso ? /(\d+)([ymwdhs])/g : /(\d+)(min|w|d|h|m|s)/g)];
  const isoTime = iso ? written.toUpperCase().indexOf("T") : -1;
  let minutes = 0;
  let unit: Unit | null = null;
  let n = 0;
  for (const p of parts) {
    const value = Number(p[1]);
    let key = p[2]!;
    if (iso && key === "m") key = p.index! > isoTime && isoTime >= 0 ? "m" : "mo";
    if (key === "s" || value === 0) return null;
    if (key === "y" || key === "mo") {
      if (parts.length > 1) return null;
      unit = key === "y" ? "year" : "month";
      n = value;
      continue;
    }
    minutes += value * { w: 10080, d: 1440, h: 60, m: 1, min: 1 }[key]!;
    unit = DURATION_UNITS[key]!;
  }
  if (unit === null) return null;
  if (unit !== "year" && unit !== "month") {
    if (parts.length > 1) unit = minutes % 10080 === 0 ? "week" : minutes % 1440 === 0 ? "day" : minutes % 60 === 0 ? "hour" : "minute";
    n = minutes / { week: 10080, day: 1440, hour: 60, minute: 1 }[unit as "week" | "day" | "hour" | "minute"];
  }
  const plan: Plan = { ...emptyPlan(), unit, interval: n };
  return { plan, length: written.length };
}

/**
 * The phrase in `langs`: the first language's reading when it used a word of its own and `firstWins` (English
 * needs no other table); else the longest reading of any of them (`dias úteis` is Portuguese's whole phrase, not Spanish's
 * `dias`), one that used a word of its language before one of only numbers (`14:30`), the earlier language on a tie.
 */
async function readPhrase(text: string, langs: readonly Lang[], o: ReadScheduleOptions, recurring: boolean, firstWins = true): Promise<Read> {
  let problem: PlanProblem | null = null;
  let best: { read: PlanRead; lang: Lang } | null = null;
  for (const [i, lang] of langs.entries()) {
    const table = await tableOf(lang);
    const read = await readPlan(text, table, async (index) => {
      const date = await readDateStart(text.slice(index), o.zone, o.now, lang);
      return date && { length: date.length, date: { local: date.local, dateOnly: date.dateOnly, month: date.month } };
    });
    if ("kind" in read) {
      if (!problem || read.at > problem.at) problem = read;
      continue;
    }
    if (!recurring && !read.said) continue;
    if (i === 0 && firstWins && read.anchored) return fromPlan(text, read.plan, read.end, lang, o);
    const rank = (r: PlanRead) => r.end * 2 + (r.anchored ? 1 : 0);
    if (!best || rank(read) > rank(best.read)) best = { read, lang };
  }
  if (best) return fromPlan(text, best.read.plan, best.read.end, best.lang, o);
  return { ok: false, problem: { kind: "unreadable", phrase: problem?.phrase ?? text.split(/\s+/)[0] ?? "", recurring: true } };
}

function fromPlan(text: string, plan: Plan, end: number, language: Lang | null, o: ReadScheduleOptions): Read {
  const phrase = text.slice(0, end).trim();
  const formed = scheduleOf(plan, o.zone, o.now);
  if (!formed.ok) return { ok: false, problem: { ...formed.problem, phrase } };
  return { ok: true, value: { ...formed.value, zone: o.zone, phrase, rest: restAfter(text.slice(end), ""), note: null, language } };
}
