/**
 * @module How times are shown (docs/time.md): chat times, the local-time header on prompts, the tools' `Now:`
 * line, and the local date-time used in notes and error sentences.
 */
import { type CivilFields, formatDate, formatHm, MONTH_SHORT, WEEKDAY_SHORT } from "./civil";
import { formatOffsetMs, localFields, offsetAt } from "./zone";

/**
 * How a language writes a date (docs/telegram.md#language): short weekday names from Sunday, short month names, a
 * day of a month, a day with its weekday, and how far ahead. The replies' tables (src/texts/) each carry one; the
 * model and the API read English's.
 */
export type DateWords = {
  readonly weekdays: readonly string[];
  readonly months: readonly string[];
  dayMonth(day: number, month: string, year: string): string;
  weekdayDay(weekday: string, dayMonth: string): string;
  readonly underAMinute: string;
  inMinutes(minutes: number): string;
  inHours(hours: number, minutes: number): string;
  inDays(days: number, hours: number): string;
};

/** English's, which the model and the API read. */
export const ENGLISH_DATES: DateWords = {
  weekdays: WEEKDAY_SHORT,
  months: MONTH_SHORT,
  dayMonth: (day, month, year) => `${day} ${month}${year ? ` ${year}` : ""}`,
  weekdayDay: (weekday, dayMonth) => `${weekday} ${dayMonth}`,
  underAMinute: "in under a minute",
  inMinutes: (minutes) => `in ${minutes} min`,
  inHours: (hours, minutes) => (minutes === 0 ? `in ${hours} h` : `in ${hours} h ${minutes} min`),
  inDays: (days, hours) => `in ${days} ${days === 1 ? "day" : "days"}${hours === 0 ? "" : ` ${hours} h`}`,
};

/** `15 Dec`, with the year when `withYear`. */
const dayMonth = (at: CivilFields, words: DateWords, withYear: boolean): string =>
  words.dayMonth(at.day, words.months[at.month - 1]!, withYear ? String(at.year) : "");

/** `HH:mm` when it is today in the zone, `d MMM HH:mm` this year, else `d MMM yyyy HH:mm`. */
export function formatChatTime(instant: number, zone: string, now: number, words: DateWords = ENGLISH_DATES): string {
  const at = localFields(zone, instant);
  const today = localFields(zone, now);
  if (at.year === today.year && at.month === today.month && at.day === today.day) return formatHm(at);
  return `${dayMonth(at, words, at.year !== today.year)} ${formatHm(at)}`;
}

/** `d MMM HH:mm` (the late note's form). */
export function formatDayMonthTime(instant: number, zone: string, words: DateWords = ENGLISH_DATES): string {
  const at = localFields(zone, instant);
  return `${dayMonth(at, words, false)} ${formatHm(at)}`;
}

/** `[Sat 2026-09-26 08:00 Europe/Berlin]`: the first line of every prompt the agent sees. */
export function formatHeader(instant: number, zone: string): string {
  return `[${weekdayDateTime(localFields(zone, instant))} ${zone}]`;
}

/** `Now: Sat 2026-09-26 14:03 (Europe/Berlin, UTC+02:00)`: the last line of the tools' answers. */
export function formatNowLine(now: number, zone: string): string {
  const offset = offsetAt(zone, now);
  return `Now: ${weekdayDateTime(localFields(zone, now))} (${zone}, ${formatOffsetMs(offset)})`;
}

/** `2026-09-27 09:00`, the wall time in the zone. */
export function formatLocalDateTime(instant: number, zone: string): string {
  const at = localFields(zone, instant);
  return `${formatDate(at)} ${formatHm(at)}`;
}

function weekdayDateTime(f: CivilFields): string {
  return `${WEEKDAY_SHORT[f.weekday]} ${formatDate(f)} ${formatHm(f)}`;
}

/** `1 minute`, `3 hours`, `2 days`: a rough length of time, rounded down. */
export function formatSpan(ms: number): string {
  const plural = (n: number, unit: string): string => `${n} ${unit}${n === 1 ? "" : "s"}`;
  if (ms < 3_600_000) return plural(Math.max(1, Math.floor(ms / 60_000)), "minute");
  if (ms < 172_800_000) return plural(Math.floor(ms / 3_600_000), "hour");
  return plural(Math.floor(ms / 86_400_000), "day");
}

/** `2026-09-26`: the local calendar day in the zone (per-day counters, the model's "today"). */
export function formatLocalDay(instant: number, zone: string): string {
  return formatDate(localFields(zone, instant));
}

/** `Saturday 26 September 2026`: the local date a model is told is today (docs/agent.md: the date, not the time). */
export function formatLongDate(instant: number, zone: string): string {
  const at = localFields(zone, instant);
  return `${WEEKDAY_LONG[at.weekday]} ${at.day} ${MONTH_LONG[at.month - 1]} ${at.year}`;
}

const WEEKDAY_LONG = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const MONTH_LONG = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

/** `Wed 2 Dec 14:30`, with the year when it is not this year's (`Wed 3 Mar 2027 10:00`): an understood time. */
export function formatWeekdayTime(instant: number, zone: string, now: number, words: DateWords = ENGLISH_DATES): string {
  const at = localFields(zone, instant);
  const day = dayMonth(at, words, at.year !== localFields(zone, now).year);
  return `${words.weekdayDay(words.weekdays[at.weekday]!, day)} ${formatHm(at)}`;
}

/** `Tue 8 Dec`: a day with its weekday (the daily agenda's title). */
export function formatWeekdayDay(instant: number, zone: string, words: DateWords = ENGLISH_DATES): string {
  const at = localFields(zone, instant);
  return words.weekdayDay(words.weekdays[at.weekday]!, dayMonth(at, words, false));
}

/**
 * `in 20 min`, `in 3 h 48 min`, `in 2 days 4 h`, `in 12 days`: how far ahead, to the nearest minute (so that
 * "in 2 hours" read a few milliseconds later still says 2 h); `in under a minute` below half a minute.
 */
export function formatDistance(ms: number, words: DateWords = ENGLISH_DATES): string {
  const minutes = Math.max(0, Math.round(ms / 60_000));
  if (minutes === 0) return words.underAMinute;
  if (minutes < 60) return words.inMinutes(minutes);
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return words.inHours(hours, minutes % 60);
  const days = Math.floor(hours / 24);
  return words.inDays(days, days < 7 ? hours % 24 : 0);
}
