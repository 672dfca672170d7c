/**
 * @module One-off times: `at` (ISO 8601, offset-less read in the chat's zone) and `delay` (an ISO 8601
 * duration from now), with the limits of docs/api.md, docs/time.md: in the future (60 s grace), at most 5 years ahead.
 */

import { shown } from "../contracts/ids";
import { fail, ok, type Parsed } from "../result";
import { civilFields, DAY_MS, daysInMonth, formatDate, formatHm, HOUR_MS, localMs, MINUTE_MS } from "./civil";
import { formatLocalDateTime, formatSpan } from "./format";
import { formatOffset, instantOfResolution, instantOfWall, type Resolution, resolveLocal, toLocal } from "./zone";

/** A one-off may be this far in the past when it is created (clock skew, a slow model). */
export const PAST_GRACE_MS = 60_000;
export const MAX_YEARS_AHEAD = 5;

/** A parsed `at`: the instant, and how its wall time resolved when it had no offset (for preview notes). */
export type ParsedAt = {
  instant: number;
  /** The wall time as written (local epoch ms) when no offset was given, else null. */
  local: number | null;
  resolution: Resolution["kind"];
};

const AT = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?([Zz]|[+-]\d{2}:\d{2})?)?$/;

function atFormat(input: string, zone: string, field: string): string {
  return `"${field}" must be an ISO 8601 date or date and time such as 2026-12-01T09:00 (read in ${zone}) or 2026-12-01T09:00:00Z; got "${shown(input)}".`;
}

/**
 * Parses an `at`: `yyyy-MM-dd` (09:00 in the zone) or `yyyy-MM-dd[T| ]HH:mm[:ss[.fff]]` with an optional
 * `Z` or `±HH:MM`. Without an offset the wall time is read in the zone: in a DST gap it moves forward by the
 * gap; when it occurs twice it takes the earlier instant (Temporal's "compatible"). `field` names the input in
 * the sentences (`until` is read the same way).
 */
export function parseAt(input: string, zone: string, field = "at"): Parsed<ParsedAt> {
  const text = input.trim();
  const m = AT.exec(text);
  if (!m) return fail(atFormat(input, zone, field));
  const [, y, mo, d, hh, mi, ss, frac, offset] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = hh === undefined ? 9 : Number(hh);
  const minute = mi === undefined ? 0 : Number(mi);
  const second = ss === undefined ? 0 : Number(ss);
  const ms = frac === undefined ? 0 : Number(frac.padEnd(3, "0"));
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month) || hour > 23 || minute > 59 || second > 59) {
    return fail(`"${field}" is not a real date and time: "${shown(input)}"; use an ISO 8601 date and time such as 2026-12-01T09:00.`);
  }
  const local = localMs(year, month, day, hour, minute, second, ms);
  if (offset !== undefined) {
    let offsetMs = 0;
    if (offset !== "Z" && offset !== "z") {
      const oh = Number(offset.slice(1, 3));
      const om = Number(offset.slice(4, 6));
      if (oh > 23 || om > 59) return fail(`"${field}" has an impossible offset "${offset}"; use Z or ±HH:MM such as +02:00.`);
      offsetMs = (offset.startsWith("-") ? -1 : 1) * (oh * HOUR_MS + om * MINUTE_MS);
    }
    return ok({ instant: local - offsetMs, local: null, resolution: "normal" });
  }
  const r = resolveLocal(zone, local);
  return ok({ instant: instantOfResolution(r), local, resolution: r.kind });
}

/** The latest instant a one-off may have: the same wall time 5 years on (29 Feb → 28 Feb). */
export function maxAhead(now: number, zone: string): number {
  const f = civilFields(toLocal(zone, now));
  const year = f.year + MAX_YEARS_AHEAD;
  const day = Math.min(f.day, daysInMonth(year, f.month));
  // The later instant of an overlap: the limit is the last moment that wall time names.
  return instantOfWall(zone, localMs(year, f.month, day, f.hour, f.minute, f.second, f.millisecond), { overlap: "second" });
}

/**
 * The instant of `hour:minute` on the calendar day after `now`'s in `zone` (the Tomorrow 9:00 of a snooze): the
 * next day by the calendar, not 24 hours on, so a DST change in between keeps the wall time; a wall time in a
 * gap moves forward by it, one that occurs twice takes the first, as an `at` does.
 */
export function tomorrowAt(zone: string, now: number, hour: number, minute: number): number {
  const today = civilFields(toLocal(zone, now));
  const tomorrow = civilFields(localMs(today.year, today.month, today.day) + DAY_MS);
  return instantOfWall(zone, localMs(tomorrow.year, tomorrow.month, tomorrow.day, hour, minute));
}

/** Checks a one-off instant against now: not in the past (60 s grace), at most 5 years ahead. */
export function checkOneOff(field: "at" | "delay", instant: number, zone: string, now: number): Parsed<number> {
  if (instant < now - PAST_GRACE_MS) {
    return fail(`"${field}" must be in the future; ${formatLocalDateTime(instant, zone)} in ${zone} was ${formatSpan(now - instant)} ago.`);
  }
  const limit = maxAhead(now, zone);
  if (instant > limit) {
    return fail(`"${field}" must be at most 5 years ahead (until ${formatLocalDateTime(limit, zone)} in ${zone}); got ${formatLocalDateTime(instant, zone)}.`);
  }
  return ok(instant);
}

/** Parses an `at` and checks it against now. */
export function resolveAt(input: string, zone: string, now: number): Parsed<ParsedAt> {
  const parsed = parseAt(input, zone);
  if (!parsed.ok) return parsed;
  const checked = checkOneOff("at", parsed.value.instant, zone, now);
  return checked.ok ? parsed : checked;
}

const DURATION = /^P(?!$)(\d+Y)?(\d+M)?(\d+W)?(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+(?:\.\d{1,3})?S)?)?$/i;

/** The range of instants (and so of dates) that Temporal, and ECMAScript's Date, can hold. */
const MAX_INSTANT_MS = 8.64e15;

/**
 * `now` plus an ISO 8601 duration in `zone`, or null when it is not one. Calendar parts (years, months, weeks,
 * days) keep the wall time in the zone, as Temporal's ZonedDateTime arithmetic does: years and months first,
 * a day past the month's end constrained to its last (31 Jan + P1M = 28 Feb), then weeks and days, the wall
 * time then resolved "compatible" (a gap moves forward by the gap, an overlap takes the earlier instant); the
 * time parts are then added as exact time. No range is checked. Computed on the engine's civil time, so a
 * delay needs no Temporal (its polyfill is 164 KB of the upload); test/unit/time-when-duration.test.ts holds it
 * to Temporal's own answers.
 */
export async function addDuration(input: string, zone: string, now: number): Promise<number | null> {
  const m = DURATION.exec(input.trim());
  if (!m) return null;
  const n = (group: string | undefined) => (group === undefined ? 0 : Number(group.slice(0, -1)));
  const [years, months, weeks, days, hours, minutes, seconds] = [m[1], m[2], m[3], m[4], m[6], m[7], m[8]].map(n) as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  let instant = now;
  if (years || months || weeks || days) {
    const f = civilFields(toLocal(zone, now));
    const month0 = f.month - 1 + months;
    const year = f.year + years + Math.floor(month0 / 12);
    const month = (((month0 % 12) + 12) % 12) + 1;
    if (year > 275760) return null;
    const day = Math.min(f.day, daysInMonth(year, month));
    const local = localMs(year, month, day, f.hour, f.minute, f.second, f.millisecond) + (weeks * 7 + days) * DAY_MS;
    instant = instantOfWall(zone, local);
  }
  instant += hours * HOUR_MS + minutes * MINUTE_MS + Math.round(seconds * 1000);
  return Number.isFinite(instant) && Math.abs(instant) <= MAX_INSTANT_MS ? instant : null;
}

/** The range a delay must lie in: from 1 minute to 5 years ahead. */
function delayInRange(instant: number, zone: string, now: number): boolean {
  return instant - now >= MINUTE_MS && instant <= maxAhead(now, zone);
}

/**
 * Turns a `delay` (an ISO 8601 duration: `PT20M`, `P1DT2H`, `P1M`) into an instant from now (`addDuration`);
 * the result must lie 1 minute to 5 years ahead.
 */
export async function resolveDelay(input: string, zone: string, now: number): Promise<Parsed<number>> {
  const instant = await addDuration(input, zone, now);
  if (instant === null) return fail(`"delay" must be an ISO 8601 duration such as PT20M or P1DT2H; got "${shown(input)}".`);
  if (!delayInRange(instant, zone, now)) return fail(`"delay" must be from 1 minute (PT1M) to 5 years (P5Y); got "${shown(input)}".`);
  return ok(instant);
}

/**
 * The note for a wall time a DST transition moved (docs/time.md preview notes): `2026-03-29 02:30 does not exist
 * in Europe/Berlin; runs at 03:30`, or that it occurs twice and runs at the first; null for a normal one.
 */
export function wallTimeNote(local: number, resolution: Resolution["kind"], instant: number, zone: string): string | null {
  if (resolution === "gap") return `${formatWallTime(local)} does not exist in ${zone}; runs at ${formatLocalDateTime(instant, zone).slice(11)}`;
  if (resolution === "ambiguous") return `${formatWallTime(local)} occurs twice in ${zone}; runs at the first (${formatOffset(zone, instant)})`;
  return null;
}

/** `2026-03-29 02:30`: how a wall time is named in notes. */
export function formatWallTime(local: number): string {
  const f = civilFields(local);
  return `${formatDate(f)} ${formatHm(f)}`;
}
