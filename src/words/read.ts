/**
 * @module The one way from words to a schedule (docs/time.md#words-when, issue 24 item 5): what `/remind` and
 * `/every` read, and what `POST /admin/preview { when, language? }`, the page's Schedule field and the Mini App
 * take. A phrase that says a repetition (every, weekdays, each, twice a day, their translations) is read as
 * `/every` reads it (the phrase reader, `phrase/`, in the phrase tables' languages) and becomes the simplest
 * schedule that says it (`form.ts`); any other phrase as `/remind` reads it (`when.ts`: chrono-node, ISO forms,
 * durations) and becomes one time. A written form is taken as it is: a quoted or bare cron or macro, an RRULE (with an
 * optional DTSTART), an ISO `at` or duration. With `recurring` (`/every`) a phrase is a repetition whether it
 * says so or not (`Montag um 9`). A phrase's schedule ends where its text begins; an end or a count may also come
 * after the text (`… inbox until March`, `phrase/tail.ts`). Errors come as one sentence (`sentences.ts`). Pure.
 */

import { NO_ENDS, type Timing } from "../time/schedule";
import { parseZone } from "../time/zone";
import { dateReader } from "./date-reader";
import { timeLeftOver, withDayPart } from "./day-part";
import { readEnds } from "./ends";
import { scheduleOf } from "./form";
import { LANGS, type Lang, langOf, langsFor, type PhraseTable, tableOf } from "./lang";
import { type Plan, type PlanProblem, type PlanRead, readPlan, readTail } from "./phrase";
import type { ScheduleProblem } from "./problem";
import { scheduleProblemText } from "./sentences";
import { ISO_AT, type OnceRead, readWhen, restAfter } from "./when";
import { durationPlan, readWritten } from "./written";

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
  /** What follows it: a command's text (without an end said after it). */
  rest: string;
  /** An end or a count said after the text (`until March` of "inbox until March"), as typed; "" when none. */
  tail: string;
  /** A one-off whose wall time a DST change moved (`2026-03-29 02:30 does not exist in Europe/Berlin; runs at 03:30`). */
  note: string | null;
  /** The language a phrase was read in; null for a written form (cron, RRULE, ISO). */
  language: Lang | null;
};

export type { ScheduleProblem };

export type ScheduleResult = { ok: true; value: ScheduleRead } | { ok: false; problem: ScheduleProblem; message: string };

/** A reading in the zone asked for, which `readSchedule` names. */
type Read = { ok: true; value: Omit<ScheduleRead, "zone"> } | { ok: false; problem: ScheduleProblem };

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
    const value: ScheduleRead = { ...read.value, zone: options.zone };
    const zone = ZONE_AFTER.exec(value.rest);
    if (zone && zone[1] === options.zone) value.rest = restAfter(value.rest, zone[0]);
    // A cron or rule shown as written, with the end a description says after it (`0 0 */2 * 1 until 2027-03-31`).
    const ends = options.whole && value.rest !== "" && value.schedule.type !== "at" ? await readEnds(value.rest, options) : null;
    if (ends !== null && value.language === null) return { ok: true, value: { ...value, ends, rest: "" } };
    if (!options.whole || value.rest === "") return { ok: true, value };
    const problem: ScheduleProblem = { kind: "unreadable", phrase: value.rest, recurring: value.schedule.type !== "at" };
    return { ok: false, problem, message: await scheduleProblemText(problem, options) };
  }
  return { ok: false, problem: read.problem, message: await scheduleProblemText(read.problem, options) };
}

async function readAny(text: string, o: ReadScheduleOptions): Promise<Read> {
  if (text === "") return { ok: false, problem: { kind: "empty" } };
  const written = readWritten(text, o.zone, o.now);
  if (written) return written.ok ? { ok: true, value: { ...written.value, tail: "", note: null, language: null } } : written;
  const prefer = langOf(o.language ?? undefined);
  const langs = langsFor(text, prefer);
  if (o.recurring) {
    if (ISO_AT.test(text)) return { ok: false, problem: { kind: "once", phrase: ISO_AT.exec(text)![0] } };
    // A duration is the interval (`/every 20m`, `/every PT90M`), unless the words read further (`16h tous les lundis`).
    const phrase = await readPhrase(text, langs, o, true);
    const duration = durationPlan(text);
    const shorter = phrase.ok ? phrase.value.phrase.length < (duration?.length ?? 0) : phrase.problem.kind === "unreadable";
    return duration && shorter ? fromPlan(text, duration.plan, duration.length, null, o) : phrase;
  }
  // English (or the language asked for) first, then the one-off readers, then the other tables: a one-off in
  // English loads no other table.
  const [first, ...others] = langs;
  if (first) {
    const repetition = await readPhrase(text, [first], o, false);
    // `16h` alone may be a time or how often; as one time, it is the one-off reader's (a delay, as `2h` is).
    if (repetition.ok || (repetition.problem.kind !== "unreadable" && repetition.problem.kind !== "ambiguous")) return repetition;
  }
  // A part of the day in the words of the language that read the time (chrono's locale), else the first.
  const part = async (whole: string, read: OnceRead) => {
    const lang = (LANGS as readonly string[]).includes(read.said.locale ?? "") ? (read.said.locale as Lang) : first;
    return lang ? withDayPart(whole, read, await tableOf(lang), o.zone, o.now) : read;
  };
  const once = await readWhen(text, o.zone, o.now, { monthFirst: (first ?? "en") === "en", part });
  if (once.ok) {
    // A one-off not in English words (`à 16h` of "à 16h tous les lundis") may start a repetition said in its own
    // language: the longer reading wins, so that a number that is a time is never the one-off and the rest text.
    const { said } = once.value;
    if (others.length > 0 && !(said.locale === "en" && /\p{L}/u.test(once.value.phrase))) {
      const repetition = await readPhrase(text, others, o, false, false);
      if (repetition.ok && repetition.value.phrase.length > once.value.phrase.length) return repetition;
    }
    const { instant, phrase, rest, note } = once.value;
    // "в 15 часов", "в 3 часа дня": chrono read the hour and left words of the time as the text;
    // the time they say may not be the one read ("в 17 часов завтра" was today's). Refused rather than misread.
    const lang = (LANGS as readonly string[]).includes(said.locale ?? "") ? (said.locale as Lang) : first;
    const left = lang ? timeLeftOver(rest, await tableOf(lang)) : null;
    if (left) return { ok: false, problem: { kind: "unreadable", phrase: `${phrase} ${left}`, rest: restAfter(rest, left), recurring: false } };
    return { ok: true, value: { schedule: { type: "at", at: instant }, ends: NO_ENDS, phrase, rest, tail: "", note, language: null } };
  }
  if (once.problem.kind !== "unreadable") return { ok: false, problem: once.problem };
  const repetition = await readPhrase(text, others, o, false, false);
  if (repetition.ok || repetition.problem.kind !== "unreadable") return repetition;
  return { ok: false, problem: { ...once.problem, recurring: false } };
}

/**
 * The phrase in `langs`: the first language's reading when it used a word of its own and `firstWins` (English
 * needs no other table); else the longest reading of any of them (`dias úteis` is Portuguese's whole phrase, not Spanish's
 * `dias`), one that used a word of its language before one of only numbers (`14:30`), the earlier language on a tie.
 * A refusal of the first language's other than "not read" (a number too large, a part said twice) stands.
 */
async function readPhrase(text: string, langs: readonly Lang[], o: ReadScheduleOptions, recurring: boolean, firstWins = true): Promise<Read> {
  let problem: PlanProblem | null = null;
  let best: { read: PlanRead; table: PhraseTable } | null = null;
  for (const [i, lang] of langs.entries()) {
    const table = await tableOf(lang);
    const read = await readPlan(text, table, dateReader(text, table, o));
    if ("kind" in read) {
      if (i === 0 && firstWins && read.kind !== "unreadable") return { ok: false, problem: { kind: read.kind, phrase: read.phrase } };
      if (!problem || read.at > problem.at) problem = read;
      continue;
    }
    if (!recurring && !read.said) continue;
    if (i === 0 && firstWins && read.anchored) return fromPlan(text, read.plan, read.end, table, o);
    const rank = (r: PlanRead) => r.end * 2 + (r.anchored ? 1 : 0);
    if (!best || rank(read) > rank(best.read)) best = { read, table };
  }
  if (best) return fromPlan(text, best.read.plan, best.read.end, best.table, o);
  if (problem && problem.kind !== "unreadable") return { ok: false, problem: { kind: problem.kind, phrase: problem.phrase } };
  return { ok: false, problem: { kind: "unreadable", phrase: problem?.phrase ?? text.split(/\s+/)[0] ?? "", recurring: true } };
}

/**
 * The schedule of a plan read up to `end`, with the text after it and an end or count said after the text (`table`:
 * the phrase's language; none for a duration).
 */
async function fromPlan(text: string, plan: Plan, end: number, table: PhraseTable | null, o: ReadScheduleOptions): Promise<Read> {
  const phrase = text.slice(0, end).trim();
  let rest = text.slice(end);
  let tail = "";
  const after = table && restAfter(rest, "") !== "" ? await readTail(text, end, plan, table, dateReader(text, table, o)) : null;
  if (after) [plan, rest, tail] = [after.plan, text.slice(end, after.at), text.slice(after.at).trim()];
  const formed = scheduleOf(plan, o.zone, o.now);
  if (!formed.ok) return { ok: false, problem: { ...formed.problem, phrase: tail === "" ? phrase : `${phrase} … ${tail}` } };
  rest = restAfter(rest, "").replace(/[\s,;:–—-]+$/u, "");
  return { ok: true, value: { ...formed.value, phrase, rest, tail, note: null, language: table?.lang ?? null } };
}
