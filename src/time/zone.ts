/**
 * @module Time zones: validating a zone name and the offset of a zone at an instant. Offsets come from the
 * runtime's `Intl` tz data through one cached formatter per zone (created lazily, never at module scope).
 */

import { shown } from "../contracts/ids";
import type { Parsed } from "../result";
import { type CivilFields, civilFields, DAY_MS, localMs, MINUTE_MS } from "./civil";
import { remember } from "./memo";
import { WINDOWS_ZONES } from "./windows-zones";

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    formatters.set(zone, f);
  }
  return f;
}

/** `1/31/2026, 13:05:09` (en-US, h23): the shape `formatter` prints. */
const EN_US = /^(\d+)\/(\d+)\/(\d+),? (\d+):(\d+):(\d+)$/;

/**
 * The zone's UTC offset in milliseconds at an instant (local = instant + offset). `format` and a regex are
 * about 3× faster than `formatToParts`; the parts are the fallback should a runtime print another shape.
 */
export function offsetAt(zone: string, instant: number): number {
  const whole = Math.floor(instant / 1000) * 1000;
  const f = formatter(zone);
  const date = new Date(whole);
  const m = EN_US.exec(f.format(date));
  let local: number;
  if (m) {
    local = localMs(+m[3]!, +m[1]!, +m[2]!, +m[4]! % 24, +m[5]!, +m[6]!);
  } else {
    const p: Record<string, number> = {};
    for (const part of f.formatToParts(date)) if (part.type !== "literal") p[part.type] = Number(part.value);
    local = localMs(p.year!, p.month!, p.day!, p.hour! % 24, p.minute!, p.second!);
  }
  return local - whole;
}

/** Local epoch milliseconds (wall-clock time as if it were UTC) of an instant in a zone. */
export function toLocal(zone: string, instant: number): number {
  return instant + offsetAt(zone, instant);
}

/** Wall-clock fields of an instant in a zone. */
export function localFields(zone: string, instant: number): CivilFields {
  return civilFields(toLocal(zone, instant));
}

/** `UTC+02:00`, `UTC-03:30`, `UTC+05:45`, `UTC+00:00`. */
export function formatOffset(zone: string, instant: number): string {
  return formatOffsetMs(offsetAt(zone, instant));
}

export function formatOffsetMs(offset: number): string {
  const minutes = Math.round(Math.abs(offset) / MINUTE_MS);
  const hh = String(Math.floor(minutes / 60)).padStart(2, "0");
  const mm = String(minutes % 60).padStart(2, "0");
  return `UTC${offset < 0 ? "-" : "+"}${hh}:${mm}`;
}

/**
 * How a local wall-clock time maps to instants in a zone:
 * - `normal`: one instant;
 * - `ambiguous` (fall-back overlap): two instants, `first` < `second`;
 * - `gap` (spring-forward): none; `shifted` is the wall time moved forward by the gap (what an offset-less
 *   `at` means), `transition` the first instant after the gap (where cron fires).
 */
export type Resolution =
  | { kind: "normal"; instant: number }
  | { kind: "ambiguous"; first: number; second: number }
  | { kind: "gap"; shifted: number; transition: number };

/**
 * Resolves a local time (local epoch ms) in a zone. The offsets a day either side bracket the wall time;
 * real zones never change offset twice within two days, so at most one transition lies between.
 */
export function resolveLocal(zone: string, local: number): Resolution {
  const before = offsetAt(zone, local - DAY_MS);
  const after = offsetAt(zone, local + DAY_MS);
  if (before === after) return { kind: "normal", instant: local - before };
  const early = local - before; // the instant if the earlier offset applies
  const late = local - after; // the instant if the later offset applies
  const earlyValid = offsetAt(zone, early) === before;
  const lateValid = offsetAt(zone, late) === after;
  if (earlyValid && lateValid) {
    return early === late ? { kind: "normal", instant: early } : { kind: "ambiguous", first: Math.min(early, late), second: Math.max(early, late) };
  }
  if (earlyValid) return { kind: "normal", instant: early };
  if (lateValid) return { kind: "normal", instant: late };
  // A gap: the clocks jumped forward (after > before), so late < early and the transition lies in
  // (late, early]. Search it to the second; transitions fall on whole seconds.
  let lo = Math.floor(late / 1000);
  let hi = Math.ceil(early / 1000);
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (offsetAt(zone, mid * 1000) === before) lo = mid;
    else hi = mid;
  }
  return { kind: "gap", shifted: early, transition: hi * 1000 };
}

/** Which instant a wall time that occurs twice stands for: the first (what an offset-less `at` means), or the second. */
export type Overlap = "first" | "second";

/**
 * The one instant a resolved wall time stands for (docs/time.md): in a spring-forward gap the wall time moved
 * forward by the gap, in a fall-back overlap the first instant unless `overlap` asks for the second.
 */
export function instantOfResolution(r: Resolution, overlap: Overlap = "first"): number {
  return r.kind === "normal" ? r.instant : r.kind === "ambiguous" ? r[overlap] : r.shifted;
}

/** The instant of a wall time (local epoch ms) in `zone`, by the gap and overlap rule of `instantOfResolution`. */
export function instantOfWall(zone: string, local: number, options: { overlap?: Overlap } = {}): number {
  return instantOfResolution(resolveLocal(zone, local), options.overlap);
}

const OFFSET_LIKE = /^(?:[+\-\u2212]|(?:utc|gmt)\s*[+\-\u2212]\s*\d)/i;

/** The sentence of docs/time.md for a zone we do not accept. */
export function unknownZone(input: string): string {
  return `Unknown time zone "${shown(input)}". Use an IANA name such as Europe/Berlin or America/New_York.`;
}

/**
 * Validates a zone name: an IANA name (kept as written when it is exact, else the runtime's spelling), or a
 * Windows id converted to IANA. `Local`, bare offsets and unknown names are rejected with one sentence.
 */
export function parseZone(input: string): Parsed<string> {
  // A chat's zone is checked on every alarm and call; asking Intl costs ~85 µs, so answers are kept.
  return remember(zoneAnswers, input, () => parseZoneUncached(input));
}

const zoneAnswers = new Map<string, Parsed<string>>();

function parseZoneUncached(input: string): Parsed<string> {
  const name = input.trim();
  if (name === "" || name.toLowerCase() === "local" || OFFSET_LIKE.test(name)) {
    return { ok: false, error: unknownZone(input) };
  }
  const resolved = ianaName(name);
  if (resolved) return { ok: true, value: resolved };
  const windows = WINDOWS_ZONES[name.toLowerCase()];
  if (windows) return { ok: true, value: ianaName(windows) ?? windows };
  return { ok: false, error: unknownZone(input) };
}

function ianaName(name: string): string | null {
  try {
    const canonical = new Intl.DateTimeFormat("en-US", { timeZone: name }).resolvedOptions().timeZone;
    if (OFFSET_LIKE.test(canonical)) return null;
    // The runtime may fold a current name into an old link (Europe/Kyiv → Europe/Kiev); an exact name stays.
    if (canonical.toLowerCase() === name.toLowerCase()) return canonical;
    if (isExactCase(name)) return name;
    return currentName(name) ?? canonical;
  } catch {
    return null;
  }
}

/**
 * Current IANA names that some runtimes still fold into their old links (ICU follows CLDR's older ids), so
 * that a name typed in lower case is stored in its current spelling rather than the link's.
 */
export const CURRENT_NAMES = [
  "Africa/Asmara",
  "America/Argentina/Buenos_Aires",
  "America/Argentina/Catamarca",
  "America/Argentina/Cordoba",
  "America/Argentina/Jujuy",
  "America/Argentina/Mendoza",
  "America/Atikokan",
  "America/Indiana/Indianapolis",
  "America/Kentucky/Louisville",
  "America/Nuuk",
  "Asia/Dhaka",
  "Asia/Ho_Chi_Minh",
  "Asia/Kathmandu",
  "Asia/Kolkata",
  "Asia/Thimphu",
  "Asia/Ulaanbaatar",
  "Asia/Urumqi",
  "Asia/Yangon",
  "Atlantic/Faroe",
  "Europe/Kyiv",
  "Pacific/Chuuk",
  "Pacific/Kanton",
  "Pacific/Pohnpei",
];

function currentName(name: string): string | undefined {
  const lower = name.toLowerCase();
  return CURRENT_NAMES.find((n) => n.toLowerCase() === lower);
}

/** A name that looks typed in IANA's own case (each segment starts upper-case, or is all upper-case). */
function isExactCase(name: string): boolean {
  return name.split("/").every((s) => /^[A-Z]/.test(s));
}
