/**
 * @module A recurring job's runs as a calendar reads them (docs/calendar.md#what-the-feed-holds): an RRULE from its next
 * occurrence on, with UNTIL or COUNT where the job ends and EXDATE for the runs skipped by hand, or, where no RRULE
 * says the schedule, its runs of the next 60 days. Where a daylight-saving change makes Cuckoo's runs differ from what
 * a calendar expands (a time in a spring-forward gap runs at the gap's end, where RFC 5545 moves it by the gap's
 * length and ical.js back by it; an interval schedule runs twice in a fall-back hour; a time that occurs twice reads
 * as its first instant in RFC 5545 and as its second in ical.js), the series says what Cuckoo does: the instants either
 * reading makes that Cuckoo does not run are excluded (a gap time by its local time), and Cuckoo's own instants that
 * either reading misses are added as UTC RDATEs; an exclusion ical.js would pass over is listed again (`icaljs.ts`).
 * Read as RFC 5545 defines a recurrence set (a set: an instant listed twice is one), the series expands to exactly
 * Cuckoo's runs for the next 400 days. Pure.
 */
import { nextRecurringRun, pastSkipped, type RecurringSchedule, type Skipped } from "../jobs/fire";
import type { JobRecord } from "../jobs/records";
import { upcomingRuns } from "../jobs/upcoming";
import { nextOccurrence, nextRuleOccurrence, parseCron, parseRuleSchedule, resolveLocal, toLocal, untilInstant } from "../time";
import { DAY_MS, HOUR_MS } from "../time/civil";
import { walkFrom } from "../time/next";
import { offsetAt } from "../time/zone";
import { cronRrule } from "./cron-rule";
import { listedAgain } from "./icaljs";
import { utcDateTime } from "./ics";
import { spanTransitions } from "./vtimezone";

/** How far ahead a schedule no RRULE says is listed run by run. */
export const INSTANCE_DAYS = 60;
/** The most runs one such job lists. */
export const MAX_INSTANCES = 500;
/** How far ahead daylight-saving differences are written out (a calendar fetches the feed again long before). */
export const CORRECTION_DAYS = 400;
/** How far either side of a transition its differences can reach: no zone's change is larger than 2 hours. */
const NEAR_MS = 3 * HOUR_MS;

/** An excluded instance: by its local time (read in the zone as the RRULE's are) or by its instant. */
export type Exclusion = { local: number } | { instant: number };

export type Series =
  | { kind: "rule" /** DTSTART's local time. */; start: number; rrule: string; exclude: Exclusion[]; add: number[] }
  | { kind: "instances"; runs: number[] };

type Job = Pick<JobRecord, "until" | "runsLeft" | "nextRunAt">;

/** The series of a recurring job's runs after `now`, or null when it has none. */
export function seriesOf(job: Job, schedule: RecurringSchedule, zone: string, now: number, skipped: Skipped): Series | null {
  const runs = (): Generator<number> => upcomingRuns(job, schedule, zone, skipped);
  const read = wallsOf(schedule, zone);
  if (read === null) return null;
  if (read.rrule === null) {
    const list: number[] = [];
    for (const t of runs()) {
      if (t <= now) continue;
      if ((list.length > 0 && t > now + INSTANCE_DAYS * DAY_MS) || list.length >= MAX_INSTANCES) break;
      list.push(t);
    }
    return list.length === 0 ? null : { kind: "instances", runs: list };
  }
  // A job with runs left has a list of them (at most 1,000); any other ends at its `until`, or never.
  const finite = job.runsLeft === null ? null : [...runs()].filter((t) => t > now);
  if (finite !== null ? finite.length === 0 : !someAfter(runs(), now)) return null;
  const first = firstWall(read.next, zone, now);
  if (first === null) return null;
  const end = finite !== null ? finite[finite.length - 1]! : job.until !== null ? untilInstant(job.until, zone) : null;
  const cuckoo = (from: number, to: number): number[] => {
    if (finite !== null) return finite.filter((t) => t >= from && t <= to);
    const out: number[] = [];
    const start = pastSkipped(schedule, zone, nextRecurringRun(schedule, zone, Math.max(from - 1, now)), skipped);
    for (const t of upcomingRuns({ ...job, nextRunAt: start, runsLeft: null }, schedule, zone, skipped)) {
      if (t > to) break;
      out.push(t);
    }
    return out;
  };
  const exclude: Exclusion[] = [];
  const add: number[] = [];
  const covered: [number, number][] = [];
  const horizon = Math.min(end ?? Number.POSITIVE_INFINITY, now + CORRECTION_DAYS * DAY_MS) + NEAR_MS;
  for (const t of spanTransitions(zone, now).filter((t) => t.at >= now - NEAR_MS && t.at < horizon)) {
    const near = differences(t.at, read, first, zone, end, cuckoo(t.at - NEAR_MS, t.at + NEAR_MS));
    exclude.push(...near.exclude);
    add.push(...near.add);
    covered.push([t.at - NEAR_MS, t.at + NEAR_MS]);
  }
  // A run skipped by hand away from any change: its local time, as the RRULE has it.
  for (const s of skipped) {
    if (s > now && (end === null || s <= end) && !covered.some(([a, b]) => s >= a && s <= b)) exclude.push({ local: toLocal(zone, s) });
  }
  const plain = exclude.length === 0 && add.length === 0;
  const ending = finite !== null && plain ? `;COUNT=${finite.length}` : end !== null ? `;UNTIL=${utcDateTime(end)}` : "";
  return { kind: "rule", start: first, rrule: `${read.rrule}${ending}`, exclude, add: [...new Set(add)].sort((a, b) => a - b) };
}

/** Whether a run comes after `now`. */
function someAfter(runs: Iterable<number>, now: number): boolean {
  for (const t of runs) if (t > now) return true;
  return false;
}

/**
 * A schedule's RRULE (null: none says it) and its wall times, the next strictly after a local time; `hourly`: FREQ=HOURLY,
 * whose gap times ical.js steps over rather than reading them back (as it reads every other FREQ's).
 */
type Walls = { rrule: string | null; next: (local: number) => number | null; hourly: boolean };

function wallsOf(schedule: RecurringSchedule, zone: string): Walls | null {
  if (schedule.type === "cron") {
    const cron = parseCron(schedule.cron);
    if (!cron.ok) return null;
    // In UTC, an instant is its own wall time.
    return { rrule: cronRrule(cron.value), next: (local) => nextOccurrence(cron.value, "UTC", local)?.at ?? null, hourly: false };
  }
  const rule = parseRuleSchedule(schedule, zone);
  if (!rule.ok) return null;
  return {
    rrule: schedule.rrule.toUpperCase(),
    next: (local) => nextRuleOccurrence(rule.value, "UTC", local)?.at ?? null,
    hourly: rule.value.rule.freq === "HOURLY",
  };
}

/** Where a wall time can land: Cuckoo's instants, and those of an RFC 5545 reading and of ical.js's. */
type Landing = { normal: number } | { gap: true; rfc: number; icaljs: number; cuckoo: number } | { twice: true; first: number; second: number };

function landing(zone: string, local: number): Landing {
  const r = resolveLocal(zone, local);
  if (r.kind === "normal") return { normal: r.instant };
  if (r.kind === "ambiguous") return { twice: true, first: r.first, second: r.second };
  return { gap: true, rfc: r.shifted, icaljs: local - offsetAt(zone, r.transition), cuckoo: r.transition };
}

/** The first wall time of the schedule that can land after `now` (DTSTART: an occurrence, as RFC 5545 counts it). */
function firstWall(next: (local: number) => number | null, zone: string, now: number): number | null {
  let w = next(walkFrom(zone, now).start - 1);
  for (let i = 0; w !== null && i < 1000; i++, w = next(w)) {
    const l = landing(zone, w);
    const latest = "normal" in l ? l.normal : "gap" in l ? Math.max(l.rfc, l.icaljs, l.cuckoo) : l.second;
    if (latest > now) return w;
  }
  return null;
}

/**
 * The exclusions and additions near one transition: the RRULE's wall times within reach, landed as each reading
 * lands them (up to the end), against Cuckoo's runs there.
 */
function differences(
  at: number,
  { next, hourly }: Walls,
  first: number,
  zone: string,
  end: number | null,
  runs: readonly number[],
): { exclude: Exclusion[]; add: number[] } {
  const from = at - NEAR_MS;
  const to = at + NEAR_MS;
  const inside = (t: number): boolean => t >= from && t <= to && (end === null || t <= end);
  const normal = new Set<number>();
  const rfc = new Set<number>();
  const icaljs = new Set<number>();
  const gaps: { local: number; rfc: number; icaljs: number }[] = [];
  // ical.js's instances, in the order it expands them.
  const expanded: number[] = [];
  const expand = (t: number): void => {
    if (end === null || t <= end) expanded.push(t);
  };
  // Wall times reach an hour past the instants either side, whatever the offsets.
  for (let w = next(Math.max(first - 1, toLocal(zone, from) - 3 * HOUR_MS)); w !== null && w <= toLocal(zone, to) + 3 * HOUR_MS; w = next(w)) {
    const l = landing(zone, w);
    if ("normal" in l) {
      if (inside(l.normal)) normal.add(l.normal);
      expand(l.normal);
    } else if ("gap" in l) {
      if (inside(l.rfc)) rfc.add(l.rfc);
      if (inside(l.icaljs)) icaljs.add(l.icaljs);
      gaps.push({ local: w, rfc: l.rfc, icaljs: l.icaljs });
      if (!hourly) expand(l.icaljs);
    } else {
      if (inside(l.first)) rfc.add(l.first);
      if (inside(l.second)) icaljs.add(l.second);
      expand(l.second);
    }
  }
  const ours = new Set(runs);
  const read = (t: number): boolean => normal.has(t) || (rfc.has(t) && icaljs.has(t));
  const excluded = new Set([...normal, ...rfc, ...icaljs].filter((t) => !ours.has(t)));
  const exclude: Exclusion[] = [];
  // A gap time whose every reading is excluded: by its local time, which any reader lands where it lands the RRULE's.
  for (const g of gaps) {
    if ((!excluded.has(g.rfc) && inside(g.rfc)) || (!excluded.has(g.icaljs) && inside(g.icaljs)) || normal.has(g.rfc) || normal.has(g.icaljs)) continue;
    excluded.delete(g.rfc);
    excluded.delete(g.icaljs);
    exclude.push({ local: g.local });
  }
  for (const t of excluded) exclude.push(normal.has(t) ? { local: toLocal(zone, t) } : { instant: t });
  const add = runs.filter((t) => !read(t));
  // What ical.js would pass over is listed once more (docs/calendar.md#daylight-saving).
  const asRead = (e: Exclusion): number => {
    if ("instant" in e) return e.instant;
    const l = landing(zone, e.local);
    return "normal" in l ? l.normal : "gap" in l ? l.icaljs : l.second;
  };
  const byRead = new Map(exclude.map((e) => [asRead(e), e]));
  const again = listedAgain(
    expanded,
    add,
    [...byRead.keys()].sort((a, b) => a - b),
  );
  return { exclude: [...exclude, ...again.flatMap((t) => byRead.get(t) ?? [])], add };
}
