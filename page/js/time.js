// @ts-check
/**
 * @module Pure time helpers of the page: instants shown in the chat's zone and relative to now ("in 3 h"), a
 * job's schedule as written for the dialog's one field (a one-off's wall time; a repetition's as written when the
 * API's words for it cannot be had: a cron expression, a rule with its DTSTART), and what is left of a job that ends. What a typed schedule means
 * is the API's to say (`POST /admin/preview { when }`). No DOM; tested in Node (test/unit/page-time.test.ts).
 */

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

/**
 * A job's schedule as the Schedule field shows it for editing, in a form the bot reads back as it is: a one-off's
 * wall time, a cron expression, or a rule after its start (`DTSTART:20261208T1000 RRULE:FREQ=WEEKLY;…`).
 * @param {import("./state.js").Job["schedule"]} schedule @param {string} zone
 */
export function scheduleField(schedule, zone) {
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
  const parts = Object.fromEntries(
    format("UTC", { weekday: "short", day: "numeric", month: "short", year: "numeric" })
      .formatToParts(Date.UTC(year ?? 0, (month ?? 1) - 1, day ?? 1))
      .map((p) => [p.type, p.value]),
  );
  const thisYear = format(zone, { year: "numeric" }).format(now);
  const time = until.slice(11, 16);
  return `${parts.weekday} ${parts.day} ${parts.month}${parts.year === thisYear ? "" : ` ${parts.year}`}${time === "23:59" ? "" : ` ${time}`}`;
}

/**
 * What is left of a job that ends (docs/time.md#jobs-that-end-until-and-runsleft): `3 runs left`, `until Thu 31 Dec`, `last run`, or "".
 * @param {{ runsLeft?: number | null, until?: string | null }} job @param {string} zone @param {number} now
 */
export function leftOf(job, zone, now) {
  const parts = [];
  if (job.runsLeft === 0) return "last run";
  if (typeof job.runsLeft === "number") parts.push(`${job.runsLeft} ${job.runsLeft === 1 ? "run" : "runs"} left`);
  if (job.until) parts.push(`until ${untilOf(job.until, zone, now)}`);
  return parts.join(" · ");
}
