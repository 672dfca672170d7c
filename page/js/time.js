// @ts-check
/**
 * @module Pure time helpers of the page: instants shown in the chat's zone and relative to now ("in 3 h"), a
 * job's schedule as written for the dialog's one field (a one-off's wall time; a repetition's as written when the
 * API's words for it cannot be had: a cron expression, a rule with its DTSTART), what is left of a job that ends, and a
 * duration in words (`1 day`, `10 min`: a job's notices and nags). What a typed schedule means
 * is the API's to say (`POST /admin/preview { when }`). Words and dates are in the page's language (texts.js), on a
 * 24-hour clock. No DOM; tested in Node (test/unit/page-time.test.ts).
 */
import { language, locale, t } from "./texts.js";

/** @type {Map<string, Intl.DateTimeFormat>} */
const formats = new Map();
/** @param {string} zone @param {Intl.DateTimeFormatOptions} options @param {string} [tag] a locale other than the page's */
function format(zone, options, tag = locale()) {
  const key = `${tag}|${zone}|${JSON.stringify(options)}`;
  let f = formats.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(tag, { timeZone: zone, hourCycle: "h23", ...options });
    formats.set(key, f);
  }
  return f;
}

/** @param {Intl.DateTimeFormat} f @param {number} instant @returns {Record<string, string>} */
const partsOf = (f, instant) => Object.fromEntries(f.formatToParts(instant).map((p) => [p.type, p.value]));

/** The year of `instant` in `zone`, as digits whatever the language. @param {number} instant @param {string} zone */
const yearOf = (instant, zone) => format(zone, { year: "numeric" }, "en-GB").format(instant);

/**
 * The day of `instant` in `zone` with its short weekday and month (`Tue 1 Dec`, its year too when `withYear`): in
 * English as the page always wrote it (`Tue 1 Dec 2026`, no comma), else as the language writes it (`Di., 1. Dez.`).
 * @param {number} instant @param {string} zone @param {boolean} withYear
 */
function dayOf(instant, zone, withYear) {
  const options = /** @type {Intl.DateTimeFormatOptions} */ ({ weekday: "short", day: "numeric", month: "short", ...(withYear ? { year: "numeric" } : {}) });
  if (language() !== "en") return format(zone, options).format(instant);
  const parts = partsOf(format(zone, options), instant);
  return `${parts.weekday} ${parts.day} ${parts.month}${withYear ? ` ${parts.year}` : ""}`;
}

/**
 * `Mon 30 Nov 08:00` in `zone` (the year added when it is not `now`'s).
 * @param {number} instant @param {string} zone @param {number} now
 */
export function inZone(instant, zone, now) {
  const time = partsOf(format(zone, { hour: "2-digit", minute: "2-digit" }, "en-GB"), instant);
  return `${dayOf(instant, zone, yearOf(instant, zone) !== yearOf(now, zone))} ${time.hour}:${time.minute}`;
}

/**
 * `in 3 h`, `in 25 min`, `in 2 d`, `now`, `5 min ago`: how far `instant` is from `now`, rounded to the nearest unit.
 * @param {number} instant @param {number} now
 */
export function relative(instant, now) {
  const ms = instant - now;
  const abs = Math.abs(ms);
  const words = t();
  let text;
  if (abs < 60_000) return ms >= 0 ? words.underAMinute : words.justNow;
  if (abs < 3_600_000) text = words.minutes(Math.round(abs / 60_000));
  else if (abs < 48 * 3_600_000) text = words.hours(Math.round(abs / 3_600_000));
  else text = words.days(Math.round(abs / 86_400_000));
  return ms >= 0 ? words.ahead(text) : words.ago(text);
}

/**
 * A one-off's time as the schedule field shows it for editing: `2026-12-01 09:00` on the chat's wall clock (the
 * API reads a time without an offset in the chat's zone).
 * @param {number} instant @param {string} zone
 */
export function wallTime(instant, zone) {
  const p = partsOf(format(zone, { year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit" }, "en-GB"), instant);
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}`;
}

/**
 * A job's schedule as the Schedule field shows it for editing, in a form the bot reads back as it is: a one-off's
 * wall time, a cron expression, or a rule after its start (`DTSTART:20261208T1000 RRULE:FREQ=WEEKLY;…`); nothing for
 * a job only its hook runs, which has no time of its own.
 * @param {import("./state.js").Job["schedule"]} schedule @param {string} zone
 */
export function scheduleField(schedule, zone) {
  if ("trigger" in schedule) return "";
  if ("at" in schedule) return wallTime(Date.parse(schedule.at), zone);
  if ("cron" in schedule) return schedule.cron;
  return `DTSTART:${schedule.start.replace(/[-:]/g, "")} RRULE:${schedule.rrule}`;
}

/**
 * An `until` as it was said: a local date-time in the chat's zone (`2026-12-31T23:59`) as `Thu 31 Dec`, its time
 * shown unless it is the day's last minute, its year unless it is the chat's year now.
 * @param {string} until @param {string} zone @param {number} now
 */
export function untilOf(until, zone, now) {
  const [year, month, day] = until.slice(0, 10).split("-").map(Number);
  // The local date read on UTC's calendar: its weekday and month names, whatever the browser's zone.
  const date = Date.UTC(year ?? 0, (month ?? 1) - 1, day ?? 1);
  const time = until.slice(11, 16);
  return `${dayOf(date, "UTC", yearOf(date, "UTC") !== yearOf(now, zone))}${time === "23:59" ? "" : ` ${time}`}`;
}

/**
 * What is left of a job that ends (docs/time.md#jobs-that-end-until-and-runsleft): `3 runs left`, `until Thu 31 Dec`, `last run`, or "".
 * @param {{ runsLeft?: number | null, until?: string | null }} job @param {string} zone @param {number} now
 */
export function leftOf(job, zone, now) {
  const words = t();
  const parts = [];
  if (job.runsLeft === 0) return words.lastRunLeft;
  if (typeof job.runsLeft === "number") parts.push(words.runsLeft(job.runsLeft));
  if (job.until) parts.push(words.until(untilOf(job.until, zone, now)));
  return parts.join(" · ");
}

/** An ISO 8601 duration's seconds (`PT1H30M` → 5400, `P7D` → 604800); null when it does not read. @param {string} iso */
export function durationSeconds(iso) {
  const m = /^P(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?$/.exec(iso);
  if (!m || iso === "P" || iso.endsWith("T")) return null;
  const [w, d, hours, min, sec] = [m[1], m[2], m[3], m[4], m[5]].map((g) => Number(g ?? 0));
  return (w ?? 0) * 604_800 + (d ?? 0) * 86_400 + (hours ?? 0) * 3600 + (min ?? 0) * 60 + (sec ?? 0);
}

/**
 * A duration in the page's words, as a job's notices and nags say it (docs/telegram.md#notices-ahead): `10 min`,
 * `1 h`, `1 day`, `1 week`, `1 h 30 min`; one with seconds, or that does not read, as written.
 * @param {string} iso
 */
export function spanText(iso) {
  const seconds = durationSeconds(iso);
  if (seconds === null || seconds === 0 || seconds % 60 !== 0) return iso;
  const words = t();
  if (seconds % 604_800 === 0) return words.spanWeeks(seconds / 604_800);
  const [d, hours, min] = [Math.floor(seconds / 86_400), Math.floor((seconds % 86_400) / 3600), Math.floor((seconds % 3600) / 60)];
  const parts = [];
  if (d) parts.push(words.spanDays(d));
  if (hours) parts.push(words.hours(hours));
  if (min) parts.push(words.minutes(min));
  return parts.join(" ");
}
