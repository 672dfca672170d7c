/**
 * @module A one-off time as a person types it (docs/telegram.md `/remind <when> <text>`), read in the chat's zone:
 * ISO forms (`2026-12-02 14:30`, `2026-12-02T14:30Z`), durations (`PT20M`, `20m`, `1h30m`, `1d`), a day of the
 * month (`on the 3rd at 8`) and everything chrono-node reads (`tomorrow 9am`, `in 2 hours`, `monday 9:00`,
 * `3 March 10:00`, `morgen um 9`, `завтра в 9`, `明日9時`). chrono gets the zone's offset at `now` in minutes
 * (it ignores IANA names) and its wall-clock answer is resolved again in the zone by `resolveLocal`, so DST days
 * come out right: a time in a gap moves forward by the gap, a time that occurs twice takes the first.
 */
import type { ParsedResult } from "chrono-node";
import { addDuration, maxAhead, parseAt, wallTimeNote } from "../time/at";
import { civilFields, DAY_MS, daysInMonth, HOUR_MS, localMs, MINUTE_MS } from "../time/civil";
import { instantOfResolution, offsetAt, type Resolution, resolveLocal, toLocal } from "../time/zone";
import { type ChronoReference, chronoRead, type Locale, localeParsers } from "./chrono";
import { andAHalf, delayInWords } from "./delay-words";
import { LANGS } from "./lang";
import { type NumericDate, numericDate } from "./numeric-date";
import { monthMatcher } from "./phrase/lexicon";
import { fold } from "./phrase/names";

/**
 * A time that was read: the instant, the phrase as typed, what follows it, and a DST note when one applies; how it
 * was said, for the reader's part of the day (`read.ts`): chrono's locale that read it, whether a clock time
 * (`clock`) or a day (`day`) was said.
 */
export type WhenRead = { instant: number; phrase: string; rest: string; note: string | null; said: Said };

/** How a one-off was said: by which chrono locale (none for ISO, durations, numeric dates), with a clock time, with a day. */
export type Said = { locale: Locale | null; clock: boolean; day: boolean };

/** A one-off read, before its range is checked: what `WhenOptions.part` may move. */
export type OnceRead = { instant: number; phrase: string; said: Said };

/**
 * Options of the one-off reader: `monthFirst`, the order of a numeric date (the language's; `numeric-date.ts`);
 * `part`, the reading with its part of the day (`day-part.ts`, which the words' tables know), before its range is
 * checked (`vanavond` is this evening, not a date at 09:00 that has passed).
 */
export type WhenOptions = { monthFirst?: boolean; part?: (text: string, read: OnceRead) => Promise<OnceRead> };

/** Why no time came of it, with the part of the input to quote back. */
export type WhenProblem =
  | { kind: "unreadable"; phrase: string; rest?: string }
  | { kind: "not-real"; phrase: string }
  | { kind: "seconds"; phrase: string }
  | { kind: "too-soon"; phrase: string }
  | { kind: "past"; phrase: string; instant: number }
  | { kind: "too-far"; phrase: string; instant: number };

export { type DateStart, readDateStart } from "./date-start";

export type WhenResult = { ok: true; value: WhenRead } | { ok: false; problem: WhenProblem };

/**
 * A reading before the range checks: `relative` when it counts from now (a delay, `in 2 hours`); `seconds` when
 * it counts seconds (`90s`, `in 30 seconds`), which a reminder is not set in.
 */
type Reading = { instant: number; phrase: string; relative: boolean; seconds?: boolean; note: string | null; said: Said };

const WRITTEN: Said = { locale: null, clock: true, day: true };

/** An ISO date, optionally with a time (`T` or a space) and, with a time, an offset; then a space or the end. */
export const ISO_AT = /^\d{4}-\d{2}-\d{2}(?:[Tt ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:[Zz]|[+-]\d{2}:\d{2})?)?(?=\s|$)/;
export const ISO_DURATION = /^P[0-9YMWDTHS.]+(?=\s|$)/i;
/**
 * `20m`, `2h`, `1h30m`, `1h 30m`, `1d`, `2w`, `90s` (also `20min`): whole numbers of units, written together or
 * spaced (a person spaces them as often as not; reading only `1h` of `1h 30m` would set the wrong time silently).
 */
export const SHORT_DELAY = /^\d{1,6}(?:w|d|h|min|m|s)(?:\s*\d{1,6}(?:w|d|h|min|m|s)){0,4}(?=\s|$)/i;
/** `on the 3rd`, `the 21st`, `3rd`: a day of the month, which chrono does not read alone. */
const ORDINAL_DAY = /^(?:on\s+)?(?:the\s+)?(\d{1,2})(?:st|nd|rd|th)\b/i;
const MONTH_AFTER = /^\s+(?:of\s+)?(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)/i;
/** Words for "on" or "the" before a date: `am 15.2.`, `le 16`, `el 16`, `il 25/12`, `dia 15`, `op de 16e`. */
const DATE_LEAD = /^(?:on the|on|the|am|den|le|el|il|dia|o dia|op de|op)\s+/i;
/** A day of the month after such a word, with its ordinal mark (`1er`, `16e`, `15.`, `15º`), and nothing more. */
const DAY_LEAD = /^(?:le|el|il|dia|o dia|am|den|op de)\s+(\d{1,2})(?:er|e|\.|º|°)?(?=[\s,]|$)/i;
/** Particles that tie a Japanese time to what follows (明日9時に…). */
const JA_PARTICLES = /^[にのはへ、。]+/;

/** Reads the WHEN at the start of `input` and checks it: in the future, at least a minute for a delay, ≤ 5 years. */
export async function readWhen(input: string, zone: string, now: number, options: WhenOptions = {}): Promise<WhenResult> {
  const text = input.trim();
  let read = withHalf(await readStart(text, zone, now, options.monthFirst ?? true), text);
  if ("kind" in read) return { ok: false, problem: read };
  if (options.part && read.said.locale !== null) read = { ...read, ...(await options.part(text, read)) };
  read = await withDateAfter(text, read, zone, now, options.part);
  if ("kind" in read) return { ok: false, problem: read };
  const problem = checkRange(read, zone, now);
  if (problem) return { ok: false, problem };
  return { ok: true, value: { instant: read.instant, phrase: read.phrase, rest: restAfter(text, read.phrase), note: read.note, said: read.said } };
}

/**
 * A time anywhere in `text` (a reminder written in words: "remind me to call the dentist tomorrow at 9"), read
 * by chrono alone, in the `prefer`red locale first; `before` and `rest` are the text on either side of the
 * phrase. Null when none is found.
 */
export async function findWhen(
  text: string,
  zone: string,
  now: number,
  prefer?: Locale,
): Promise<{ ok: true; value: WhenRead & { before: string } } | { ok: false; problem: WhenProblem } | null> {
  for (const { locale, parse } of localeParsers(text, reference(zone, now), prefer)) {
    const r = (await parse())[0];
    if (!r) continue;
    const read = fromChrono(r, zone, now, locale);
    const problem = checkRange(read, zone, now);
    if (problem) return { ok: false, problem };
    const before = text.slice(0, r.index);
    const value = { instant: read.instant, phrase: r.text, rest: restAfter(text.slice(r.index), r.text), note: read.note, said: read.said, before };
    return { ok: true, value };
  }
  return null;
}

/** A relative reading of whole hours or days followed by "and a half" takes the half too (`delay-words.ts`). */
function withHalf(read: Reading | WhenProblem, text: string): Reading | WhenProblem {
  const half = "kind" in read || !read.relative ? null : andAHalf(read.phrase, text.slice(read.phrase.length));
  return half && !("kind" in read) ? { ...read, instant: read.instant + half.add, phrase: read.phrase + half.words } : read;
}

function reference(zone: string, now: number): ChronoReference {
  return { instant: new Date(now), timezone: offsetAt(zone, now) / MINUTE_MS };
}

export function restAfter(text: string, phrase: string): string {
  return text
    .slice(phrase.length)
    .replace(/^[\s,.:;–—-]+/, "")
    .replace(JA_PARTICLES, "")
    .trim();
}

function checkRange(read: Reading, zone: string, now: number): WhenProblem | null {
  if (read.seconds) return { kind: "seconds", phrase: read.phrase };
  if (read.relative && read.instant - now < MINUTE_MS) return { kind: "too-soon", phrase: read.phrase };
  if (read.instant <= now) return { kind: "past", phrase: read.phrase, instant: read.instant };
  if (read.instant > maxAhead(now, zone)) return { kind: "too-far", phrase: read.phrase, instant: read.instant };
  return null;
}

/** The first reading that applies, in order: ISO, durations, a day of the month, chrono. */
async function readStart(text: string, zone: string, now: number, monthFirst: boolean): Promise<Reading | WhenProblem> {
  const iso = ISO_AT.exec(text);
  if (iso) {
    const parsed = parseAt(iso[0], zone);
    if (!parsed.ok) return { kind: "not-real", phrase: iso[0] };
    const { instant, local, resolution } = parsed.value;
    return { instant, phrase: iso[0], relative: false, note: local === null ? null : wallTimeNote(local, resolution, instant, zone), said: WRITTEN };
  }
  const duration = ISO_DURATION.exec(text) ?? SHORT_DELAY.exec(text);
  if (duration) return readDelay(duration[0], zone, now);
  const numeric = numericDate(text, monthFirst);
  if (numeric) return readNumericDate(text, numeric, zone, now);
  const ordinal = ORDINAL_DAY.exec(text);
  if (ordinal) {
    if (MONTH_AFTER.test(text.slice(ordinal[0].length))) {
      // "the 3rd of March at 8": chrono reads it once the leading "on the" is gone.
      const lead = /^(?:on\s+)?(?:the\s+)?/i.exec(text)![0];
      const read = await readChronoStart(text.slice(lead.length), zone, now);
      return "kind" in read ? { kind: "unreadable", phrase: firstWord(text) } : { ...read, phrase: lead + read.phrase };
    }
    return readOrdinalDay(text, ordinal[0], Number(ordinal[1]), zone, now);
  }
  // `am 15.2.`, `il 25/12`: a date in numbers after a word for "on" or "the".
  const lead = DATE_LEAD.exec(text)?.[0];
  const afterLead = lead === undefined ? null : numericDate(text.slice(lead.length), monthFirst);
  if (lead !== undefined && afterLead) {
    const read = await readNumericDate(text.slice(lead.length), afterLead, zone, now);
    return { ...read, phrase: lead + read.phrase };
  }
  // `le 16 à 18h`, `dia 15 às 18`: a day of the month alone (French chrono read `16 à 18h` as 16:00 to 18:00, today).
  const day = DAY_LEAD.exec(text);
  if (day && !monthFollows(text.slice(day[0].length))) return readOrdinalDay(text, day[0], Number(day[1]), zone, now);
  const chrono = await readChronoStart(text, zone, now);
  // A delay in words that chrono reads shorter or not at all (`in einer halben Stunde`, `in a quarter of an hour`).
  const words = await delayInWords(text);
  if (words && ("kind" in chrono || chrono.phrase.length < words.length)) {
    const instant = await addDuration(words.iso, zone, now);
    if (instant !== null) return { instant, phrase: text.slice(0, words.length), relative: true, note: null, said: WRITTEN };
  }
  return chrono;
}

/** `PT20M`, `20m`, `1h30m`: now plus the duration; seconds are not a unit a reminder is set in. */
async function readDelay(phrase: string, zone: string, now: number): Promise<Reading | WhenProblem> {
  let iso = phrase;
  if (!/^P/i.test(phrase)) {
    const units: Record<string, number> = {};
    for (const [, n, unit] of phrase.toLowerCase().matchAll(/(\d+)(w|d|h|min|m|s)/g)) {
      const key = unit === "min" ? "m" : unit!;
      units[key] = (units[key] ?? 0) + Number(n);
    }
    if (units.s !== undefined) return { instant: now, phrase, relative: true, seconds: true, note: null, said: WRITTEN };
    const date = `${units.w ? `${units.w}W` : ""}${units.d ? `${units.d}D` : ""}`;
    const time = `${units.h ? `${units.h}H` : ""}${units.m ? `${units.m}M` : ""}`;
    iso = `P${date}${time ? `T${time}` : ""}`;
    if (iso === "P") return { instant: now, phrase, relative: true, note: null, said: WRITTEN }; // "0m": too soon
  } else if (/T.*\dS$/i.test(phrase)) {
    return { instant: now, phrase, relative: true, seconds: true, note: null, said: WRITTEN };
  }
  const instant = await addDuration(iso, zone, now);
  if (instant === null) return { kind: "unreadable", phrase };
  return { instant, phrase, relative: true, note: null, said: WRITTEN };
}

/**
 * `on the 3rd at 8`: the next 3rd (this month's, or a later month's when it has passed or the month is too
 * short), at the time that follows, read by chrono on the date written out (`2026-12-03 at 8`).
 */
async function readOrdinalDay(text: string, lead: string, day: number, zone: string, now: number): Promise<Reading | WhenProblem> {
  if (day < 1 || day > 31) return { kind: "not-real", phrase: lead };
  const today = civilFields(toLocal(zone, now));
  const after = text.slice(lead.length);
  for (let k = 0; k <= 12; k++) {
    const month0 = today.month - 1 + k;
    const year = today.year + Math.floor(month0 / 12);
    const month = (month0 % 12) + 1;
    if (day > daysInMonth(year, month)) continue;
    const iso = `${year}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
    const read = await readChronoStart(iso + after, zone, now);
    if ("kind" in read) return { kind: "unreadable", phrase: lead };
    if (read.instant > now) return { ...read, phrase: lead + read.phrase.slice(iso.length) };
  }
  return { kind: "unreadable", phrase: lead };
}

/**
 * `1/30 at 9`, `30.1. um 9`: the date written in numbers (`numeric-date.ts`), this year's or, once past, the next
 * year's when no year is written, at the time that follows, read by chrono on the date written out.
 */
async function readNumericDate(text: string, date: NumericDate, zone: string, now: number): Promise<Reading | WhenProblem> {
  const lead = text.slice(0, date.length);
  const after = text.slice(date.length);
  const thisYear = civilFields(toLocal(zone, now)).year;
  for (const year of date.year === null ? [thisYear, thisYear + 1] : [date.year]) {
    if (date.day > daysInMonth(year, date.month)) continue;
    const iso = `${year}-${String(date.month).padStart(2, "0")}-${String(date.day).padStart(2, "0")}`;
    const read = await readChronoStart(iso + after, zone, now);
    if ("kind" in read) return { kind: "unreadable", phrase: lead };
    if (read.instant > now || date.year !== null) return { ...read, phrase: lead + read.phrase.slice(iso.length), said: { ...read.said, day: true } };
  }
  return { kind: "not-real", phrase: lead };
}

/** A month's name follows (`le 16 décembre`, `el 16 de marzo`), in any of the languages: a date chrono reads. */
function monthFollows(after: string): boolean {
  const word = /^\s+(?:(?:de|di|del|of|van)\s+)?(\p{L}+)/u.exec(after)?.[1];
  return word !== undefined && LANGS.some((lang) => monthMatcher(lang)(fold(word)) !== null);
}

/**
 * A clock time followed by its day (`12h30 le 27 décembre`, `3 p.m. hoy`): chrono reads the time alone and left the
 * day as the text, today's time. Read as the time on that day, or refused when the two do not read together.
 */
async function withDateAfter(text: string, read: Reading, zone: string, now: number, part: WhenOptions["part"]): Promise<Reading | WhenProblem> {
  if (read.said.locale === null || !read.said.clock || read.said.day || read.relative) return read;
  const after = text.slice(read.phrase.length);
  const lead = /^[\s,]+(?:(?:le|el|il|am|on|the|op|em|o)\s+)?/iu.exec(after)?.[0];
  if (lead === undefined) return read;
  // The day in the time's locale, or in any when the time has no word of its own (`3 p.m. hoy`, `15:00 demain`); an
  // English time in words (`at 9 call mom`) looks in English alone, and loads no other locale.
  const { locale } = read.said;
  const own = /\p{L}{2,}/u.test(read.phrase.replace(/\b[ap]\.?m\.?/giu, ""));
  const date = await readChronoStart(after.slice(lead.length), zone, now, own ? (locale === "en" ? ["en"] : [locale, "en"]) : undefined);
  if ("kind" in date || !date.said.day || date.said.clock || date.relative) return read;
  const iso = new Date(toLocal(zone, date.instant)).toISOString().slice(0, 10);
  // Read again on the date written out, with its part of the day (`6h du soir demain`).
  const written = `${iso} ${read.phrase}`;
  let both = await readChronoStart(written, zone, now);
  if (part && !("kind" in both) && both.said.locale !== null) both = { ...both, ...(await part(written, both)) };
  const phrase = text.slice(0, read.phrase.length + lead.length + date.phrase.length);
  if ("kind" in both || both.phrase.length < written.length) return { kind: "unreadable", phrase };
  return { ...both, phrase };
}

/** A letter of a script that spaces its words. */
const SPACED = /[\p{Script=Latin}\p{Script=Cyrillic}]/u;

/** chrono's longest reading at the very start, across the locales the text's script allows. */
async function readChronoStart(text: string, zone: string, now: number, only?: readonly Locale[]): Promise<Reading | WhenProblem> {
  let best: ParsedResult | null = null;
  let bestLocale: Locale | null = null;
  let elsewhere: ParsedResult | null = null;
  // A reading after a word for "at" (at midnight, um Mitternacht: chrono reads the midnight alone) is the phrase's
  // only when no locale reads the text from its start (French "à 9h" is French's 09:00, not English's "9h").
  let led: { r: ParsedResult; locale: Locale; lead: string } | null = null;
  for (const { locale, parse } of localeParsers(text, reference(zone, now), undefined, only)) {
    // English is the fallback of other scripts (digits: "14:30 позвонить"): not needed once theirs read a time.
    // English read in words ends the search (the English path loads no other locale); otherwise the longest
    // reading wins ("14:30 Uhr" is German's, not English's "14:30"; "morgen om 9" Dutch's, not German's "morgen").
    if (best && (locale === "en" || (bestLocale === "en" && /\p{L}/u.test(best.text)))) break;
    const r = (await parse())[0];
    // A reading that ends inside a word is part of that word: English "apr" is not April in "après-demain". (Only in
    // scripts that space their words: "明日9時にお母さんに電話" reads "明日9時".)
    if (!r || (SPACED.test(r.text.slice(-1)) && SPACED.test(text.charAt(r.index + r.text.length)))) continue;
    // Only a phrase at the very start splits WHEN from the text ("tomorow 9am" reads just "9am", at 8).
    if (r.index !== 0) {
      const lead = AT_LEAD.exec(text.slice(0, r.index))?.[0];
      if (lead !== undefined && !led) led = { r, locale, lead };
      elsewhere = elsewhere && elsewhere.index <= r.index ? elsewhere : r;
    } else if (!best || r.text.length > best.text.length) [best, bestLocale] = [r, locale];
  }
  if (!best && led) {
    const read = fromChrono(led.r, zone, now, led.locale);
    return { ...read, phrase: led.lead + read.phrase };
  }
  if (!best) {
    // Quote what could not be read: what comes before the first phrase that could (and keep what follows it,
    // the likely text, for the examples), else the first word.
    if (elsewhere) return { kind: "unreadable", phrase: text.slice(0, elsewhere.index).trim(), rest: restAfter(text.slice(elsewhere.index), elsewhere.text) };
    return { kind: "unreadable", phrase: firstWord(text) };
  }
  return fromChrono(best, zone, now, bestLocale!);
}

/** A word for "at" that chrono leaves before a time it reads (at midnight, um Mitternacht, à minuit, в полночь). */
const AT_LEAD = /^(?:at|around|um|gegen|à|a|vers|a las|a la|la|hacia|sobre|às|ao|al|el|le|alle|verso|om|rond|tegen|в|во|около|к)\s+$/iu;

function firstWord(text: string): string {
  return text.split(/\s+/)[0] ?? "";
}

/** The word that makes a span of days a duration from now, per locale (in a week, dans une semaine, через неделю). */
const IN: Readonly<Record<Locale, RegExp>> = {
  en: /^(?:in|within)\s/i,
  de: /^(?:in|binnen)\s/i,
  fr: /^dans\s/i,
  es: /^(?:en|dentro de)\s/i,
  pt: /^(?:em|daqui a|dentro de)\s/i,
  it: /^(?:tra|fra|entro)\s/i,
  nl: /^(?:over|binnen)\s/i,
  ru: /^через\s/i,
  uk: /^через\s/i,
  ja: /後/,
};

/** chrono's casual time-of-day words ("tonight", "this evening", "noon"): a time, though no hour was written. */
const TIME_OF_DAY = ["morning", "afternoon", "evening", "tonight", "noon", "midnight", "now"].map((t) => `casualReference/${t}`);

/**
 * The instant of a chrono result in `zone`. An explicit offset, or a duration from now (`in 2 hours`, `in 3 days`), is
 * an instant as chrono computed it. Anything else is a wall time in the zone, resolved again here (chrono applies
 * one fixed offset, which is an hour off across a DST change). A date without a time of day means 09:00, whatever
 * the hour it was said at (tomorrow, next week, the day after tomorrow, a weekday, a date); a weekday alone whose
 * 09:00 has passed means next week's. An hour 1–12 said without am/pm, a part of the day or a day is the next of
 * its two readings (`at 3` said at 11:00 is 15:00; `09:30`, with its zero, is as written); with a day, as written,
 * but on the day it is said the next of the two (`today at 3` said at 11:00 is 15:00).
 */
function fromChrono(r: ParsedResult, zone: string, now: number, locale: Locale): Reading {
  const c = r.start;
  const tags = r.tags();
  const daySaid = ["day", "weekday", "month"].some((k) => c.isCertain(k as "day"));
  // A clock time is one written in digits; chrono's own hours for words (Russian "ночью" is midnight) are not.
  const said: Said = { locale, clock: c.isCertain("hour") && /\d/.test(chronoRead(r)), day: daySaid };
  if (c.isCertain("timezoneOffset") || tags.has("result/relativeDateAndTime")) {
    const instant = r.date().getTime();
    const relative = tags.has("result/relativeDateAndTime");
    // A duration that counts seconds ("in 90 seconds") is refused like "90s": reminders are set in minutes.
    const seconds = relative && Math.round((instant - now) / 1000) % 60 !== 0;
    return { instant, phrase: r.text.trimEnd(), relative, seconds, note: null, said };
  }
  // "in 3 days", "in a week" count from now; "next week", "the day after tomorrow" are dates, as "tomorrow" is.
  const relative = tags.has("result/relativeDate") && (/\d/.test(r.text) || IN[locale].test(r.text));
  const timeOfDay = TIME_OF_DAY.some((t) => tags.has(t));
  const dateOnly = !c.isCertain("hour") && !timeOfDay && !relative;
  const hour = dateOnly ? 9 : (c.get("hour") ?? 9);
  const minute = dateOnly ? 0 : (c.get("minute") ?? 0);
  const second = c.isCertain("second") ? (c.get("second") ?? 0) : 0;
  let local = localMs(c.get("year")!, c.get("month")!, c.get("day")!, hour, minute, second);
  const bare = c.isCertain("hour") && !c.isCertain("meridiem") && hour >= 1 && hour <= 12 && !timeOfDay && !/^\D*0\d(?!\d)/.test(r.text);
  if (bare && !(daySaid && !tags.has("casualReference/today"))) local = nextReading(local, zone, now, daySaid);
  let resolved = resolve(zone, local);
  if (resolved.instant <= now && dateOnly && !c.isCertain("day")) {
    local += 7 * DAY_MS; // "friday" on a Friday after nine: next Friday
    resolved = resolve(zone, local);
  }
  const note = wallTimeNote(local, resolved.kind, resolved.instant, zone);
  return { instant: resolved.instant, phrase: r.text.trimEnd(), relative, note, said };
}

/**
 * A bare hour's next reading (`fromChrono`): of h and h + 12 (12 and 0), today's and tomorrow's, the first still
 * ahead; `today` said, today's only.
 */
function nextReading(local: number, zone: string, now: number, todayOnly: boolean): number {
  const time = local - Math.floor(local / DAY_MS) * DAY_MS;
  const other = time >= 12 * HOUR_MS ? time - 12 * HOUR_MS : time + 12 * HOUR_MS;
  const today = Math.floor(toLocal(zone, now) / DAY_MS) * DAY_MS;
  const days = todayOnly ? [today] : [today, today + DAY_MS];
  const readings = days.flatMap((d) => [d + Math.min(time, other), d + Math.max(time, other)]);
  return readings.find((l) => resolve(zone, l).instant > now) ?? local;
}

/** The instant of a wall time, as an offset-less `at` takes it: a gap moves forward, an overlap takes the first. */
function resolve(zone: string, local: number): { instant: number; kind: Resolution["kind"] } {
  const r = resolveLocal(zone, local);
  return { instant: instantOfResolution(r), kind: r.kind };
}
