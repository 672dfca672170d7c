// @ts-check
/**
 * @module Pure time helpers of the page: which schedule a text is (a cron expression, a date and time, or a
 * delay, the one field of the dialog), instants shown in the chat's zone and relative to now ("in 3 h"), and a
 * one-off's wall time for editing. No DOM; tested in Node (test/unit/page-time.test.ts).
 */

const UNITS = /** @type {const} */ ({ w: "W", d: "D", h: "H", m: "M", s: "S" });
const SHORT_DELAY = /^(?:in\s+)?((?:\d+\s*(?:weeks?|w|days?|d|hours?|hrs?|h|minutes?|mins?|m|seconds?|secs?|s)\s*)+)$/i;
const PART = /(\d+)\s*(weeks?|w|days?|d|hours?|hrs?|h|minutes?|mins?|m|seconds?|secs?|s)/gi;

/**
 * The schedule a text stands for, as the API takes it: `{ delay }` for an ISO 8601 duration or a short one
 * ("20m", "1h 30m", "in 2 days", turned into PT20M, PT1H30M, P2D), `{ at }` for a date (and time), `{ cron }`
 * for anything else (the API says what is wrong with it). Null for an empty text.
 * @param {string} text
 * @returns {{ cron: string } | { at: string } | { delay: string } | null}
 */
export function scheduleOf(text) {
  const t = text.trim();
  if (t === "") return null;
  if (/^P(?=[\dT])/i.test(t)) return { delay: t.toUpperCase() };
  const short = SHORT_DELAY.exec(t);
  if (short) return { delay: isoDuration(short[1] ?? "") };
  if (/^\d{4}-\d{2}-\d{2}/.test(t)) return { at: t };
  return { cron: t.replace(/\s+/g, " ") };
}

/** @param {string} text */
function isoDuration(text) {
  /** @type {Record<string, number>} */
  const sum = {};
  for (const [, n, unit] of text.matchAll(PART)) {
    const key = UNITS[/** @type {keyof typeof UNITS} */ ((unit ?? "").toLowerCase().startsWith("min") ? "m" : (unit ?? "")[0]?.toLowerCase() ?? "m")];
    sum[key] = (sum[key] ?? 0) + Number(n);
  }
  const date = ["W", "D"].filter((u) => sum[u]).map((u) => `${sum[u]}${u}`).join("");
  const time = ["H", "M", "S"].filter((u) => sum[u]).map((u) => `${sum[u]}${u}`).join("");
  return `P${date}${time ? `T${time}` : ""}`;
}

/** @type {Map<string, Intl.DateTimeFormat>} */
const formats = new Map();
/** @param {string} zone @param {Intl.DateTimeFormatOptions} options */
function format(zone, options) {
  const key = `${zone}|${JSON.stringify(options)}`;
  let f = formats.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat("en-GB", { timeZone: zone, hourCycle: "h23", ...options });
    formats.set(key, f);
  }
  return f;
}

/**
 * `Mon 30 Nov 08:00` in `zone` (the year added when it is not `now`'s).
 * @param {number} instant @param {string} zone @param {number} now
 */
export function inZone(instant, zone, now) {
  const parts = Object.fromEntries(
    format(zone, { weekday: "short", day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit" })
      .formatToParts(instant)
      .map((p) => [p.type, p.value]),
  );
  const thisYear = format(zone, { year: "numeric" }).format(now);
  return `${parts.weekday} ${parts.day} ${parts.month}${parts.year === thisYear ? "" : ` ${parts.year}`} ${parts.hour}:${parts.minute}`;
}

/**
 * `in 3 h`, `in 25 min`, `in 2 d`, `now`, `5 min ago`: how far `instant` is from `now`, rounded to the nearest unit.
 * @param {number} instant @param {number} now
 */
export function relative(instant, now) {
  const ms = instant - now;
  const abs = Math.abs(ms);
  let text;
  if (abs < 60_000) return ms >= 0 ? "in under a minute" : "just now";
  if (abs < 3_600_000) text = `${Math.round(abs / 60_000)} min`;
  else if (abs < 48 * 3_600_000) text = `${Math.round(abs / 3_600_000)} h`;
  else text = `${Math.round(abs / 86_400_000)} d`;
  return ms >= 0 ? `in ${text}` : `${text} ago`;
}

/**
 * A one-off's time as the schedule field shows it for editing: `2026-12-01 09:00` on the chat's wall clock (the
 * API reads a time without an offset in the chat's zone).
 * @param {number} instant @param {string} zone
 */
export function wallTime(instant, zone) {
  const p = Object.fromEntries(
    format(zone, { year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit" })
      .formatToParts(instant)
      .map((x) => [x.type, x.value]),
  );
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}`;
}
