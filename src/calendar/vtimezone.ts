/**
 * @module A zone as a VTIMEZONE (RFC 5545 section 3.6.5), from the offsets the runtime's zone data gives: the transitions of
 * the year before this one to six years on, found to the second, and written as yearly rules where they keep one
 * (`BYMONTH=3;BYDAY=-1SU` at 02:00, as Europe/Berlin's do), else as the list of their onsets. A calendar reads the
 * feed's local times through it, so a rule's runs land where Cuckoo runs them. Pure but for the zone data; each zone's
 * transitions are found once per isolate and year.
 */
import { civilFields, DAY_MS, daysInMonth, localMs } from "../time/civil";
import { WEEKDAYS } from "../time/rule";
import { offsetAt } from "../time/zone";
import { localDateTime, utcDateTime, utcOffset } from "./ics";

/** A change of a zone's offset: the first instant of the new offset, and the offsets either side (ms). */
export type Transition = { at: number; from: number; to: number };

/** How far apart two looks at the zone's offset are: no zone changes twice within a week. */
const STEP_MS = 7 * DAY_MS;

/** The zone's transitions in [from, to), in order. */
export function transitions(zone: string, from: number, to: number): Transition[] {
  const out: Transition[] = [];
  let before = offsetAt(zone, from);
  for (let t = from; t < to; t += STEP_MS) {
    const end = Math.min(t + STEP_MS, to);
    const after = offsetAt(zone, end);
    if (after === before) continue;
    // Transitions fall on whole seconds: search the last second of the old offset.
    let lo = Math.floor(t / 1000);
    let hi = Math.ceil(end / 1000);
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2);
      if (offsetAt(zone, mid * 1000) === before) lo = mid;
      else hi = mid;
    }
    out.push({ at: hi * 1000, from: before, to: after });
    before = after;
  }
  return out;
}

/** The span a feed's VTIMEZONE covers: from the 1st of January of last year to that of six years on. */
export function zoneSpan(now: number): { from: number; to: number } {
  const year = new Date(now).getUTCFullYear();
  return { from: Date.UTC(year - 1, 0, 1), to: Date.UTC(year + 6, 0, 1) };
}

const memo = new Map<string, Transition[]>();

/** `transitions` over `zoneSpan(now)`, kept per zone and year. */
export function spanTransitions(zone: string, now: number): Transition[] {
  const { from, to } = zoneSpan(now);
  const key = `${zone} ${from}`;
  let found = memo.get(key);
  if (found === undefined) {
    found = transitions(zone, from, to);
    if (memo.size > 64) memo.clear();
    memo.set(key, found);
  }
  return found;
}

/** An onset's place in its month: its month, weekday, ordinal (1–5), whether it is the last such weekday, and its time. */
type Place = { month: number; weekday: string; nth: number; last: boolean; time: number };

function placeOf(local: number): Place {
  const f = civilFields(local);
  const weekday = WEEKDAYS[(f.weekday + 6) % 7]!;
  return {
    month: f.month,
    weekday,
    nth: Math.ceil(f.day / 7),
    last: f.day + 7 > daysInMonth(f.year, f.month),
    time: local - localMs(f.year, f.month, f.day),
  };
}

/**
 * The yearly rule every onset keeps (same month, weekday and time; the same ordinal, or each the last), with an
 * UNTIL when they stop before the span's last year; null when they keep none or skip a year.
 */
function yearlyRule(group: readonly Transition[], spanEnd: number): string | null {
  const places = group.map((t) => placeOf(t.at + t.from));
  const first = places[0]!;
  const years = group.map((t) => new Date(t.at).getUTCFullYear());
  if (years.some((y, i) => i > 0 && y !== years[i - 1]! + 1)) return null;
  if (!places.every((p) => p.month === first.month && p.weekday === first.weekday && p.time === first.time)) return null;
  const byDay = places.every((p) => p.nth === first.nth && p.nth <= 4)
    ? `${first.nth}${first.weekday}`
    : places.every((p) => p.last)
      ? `-1${first.weekday}`
      : null;
  if (byDay === null) return null;
  const last = group[group.length - 1]!;
  const stops = years[years.length - 1]! < new Date(spanEnd).getUTCFullYear() - 1;
  return `FREQ=YEARLY;BYMONTH=${first.month};BYDAY=${byDay}${stops ? `;UNTIL=${utcDateTime(last.at)}` : ""}`;
}

/**
 * The VTIMEZONE lines of `zone` for a feed made at `now`: a first observance from 1970 with the offset the span starts
 * with (so that no time before its first transition reads as UTC), then one per kind of change (daylight: to a larger
 * offset), as a yearly rule or the list of its onsets. Each onset is the local time in the offset it leaves (section 3.6.5).
 */
export function vtimezone(zone: string, now: number): string[] {
  const span = zoneSpan(now);
  const all = spanTransitions(zone, now);
  const initial = all[0]?.from ?? offsetAt(zone, span.from);
  const lines = ["BEGIN:VTIMEZONE", `TZID:${zone}`];
  const observance = (kind: string, dtstart: string, from: number, to: number, more: string[]): void => {
    lines.push(`BEGIN:${kind}`, `DTSTART:${dtstart}`, `TZOFFSETFROM:${utcOffset(from)}`, `TZOFFSETTO:${utcOffset(to)}`, ...more, `END:${kind}`);
  };
  const larger = all.some((t) => t.to > initial);
  observance(larger || all.length === 0 ? "STANDARD" : "DAYLIGHT", "19700101T000000", initial, initial, []);
  const groups = new Map<string, Transition[]>();
  for (const t of all) {
    const key = `${t.from} ${t.to}`;
    groups.set(key, [...(groups.get(key) ?? []), t]);
  }
  for (const group of groups.values()) {
    const first = group[0]!;
    const kind = first.to > first.from ? "DAYLIGHT" : "STANDARD";
    const rule = yearlyRule(group, span.to);
    const onsets = group.map((t) => localDateTime(t.at + t.from));
    observance(kind, onsets[0]!, first.from, first.to, rule !== null ? [`RRULE:${rule}`] : onsets.slice(1).map((o) => `RDATE:${o}`));
  }
  lines.push("END:VTIMEZONE");
  return lines;
}
