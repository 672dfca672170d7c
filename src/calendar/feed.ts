/**
 * @module A chat's calendar feed (docs/calendar.md): its jobs as one RFC 5545 calendar, each job one event with a stable
 * UID. A one-off at its time; a recurring job as its series (`series.ts`); each in the chat's zone, with its
 * VTIMEZONE, a VALARM at the run and one per notice ahead (`before`), the job's name as the summary and its text as the
 * description; a watcher by its name only, since its command never leaves the chat. A paused job, one only its hook
 * runs and one with no run to come are left out. Pure: the chat's object hands it the jobs and serves the text.
 */
import type { Skipped } from "../jobs/fire";
import type { JobRecord } from "../jobs/records";
import { resolveLocal, toLocal } from "../time";
import { duration, escapeText, icsText, localDateTime, utcDateTime } from "./ics";
import { type Series, seriesOf } from "./series";
import { vtimezone } from "./vtimezone";

/** What the calendar's own properties say. */
export const PRODID = "-//Cuckoo//Calendar feed//EN";
/** How often a calendar is asked to fetch the feed again (RFC 7986 REFRESH-INTERVAL, and Outlook's X-PUBLISHED-TTL). */
export const REFRESH = "PT1H";

export type FeedInput = {
  chatId: string;
  zone: string;
  now: number;
  jobs: readonly JobRecord[];
  skippedOf: (jobId: string) => Skipped;
  /** The host the UIDs are made unique with (PUBLIC_URL's). */
  host: string;
  /** The calendar's name as a calendar app shows it. */
  name: string;
};

/** The feed's text: CRLF lines, folded. */
export function calendarFeed(input: FeedInput): string {
  const { zone, now } = input;
  const lines = [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    `PRODID:${PRODID}`,
    "CALSCALE:GREGORIAN",
    "METHOD:PUBLISH",
    `X-WR-CALNAME:${escapeText(input.name)}`,
    `X-WR-TIMEZONE:${zone}`,
    `REFRESH-INTERVAL;VALUE=DURATION:${REFRESH}`,
    `X-PUBLISHED-TTL:${REFRESH}`,
    ...vtimezone(zone, now),
  ];
  const jobs = [...input.jobs].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  for (const job of jobs) lines.push(...eventOf(job, input));
  lines.push("END:VCALENDAR");
  return icsText(lines);
}

/** A job's VEVENT lines, none when it has no run to come. */
function eventOf(job: JobRecord, input: FeedInput): string[] {
  const { zone, now } = input;
  if (!job.enabled || job.quarantined !== null || job.nextRunAt === null) return [];
  const schedule = job.schedule;
  if (schedule.type === "hook") return [];
  let when: string[];
  if (schedule.type === "at") {
    if (job.nextRunAt <= now) return [];
    when = [start(job.nextRunAt, zone)];
  } else {
    const series = seriesOf(job, schedule, zone, now, input.skippedOf(job.id));
    if (series === null) return [];
    when = seriesLines(series, zone);
  }
  const text = job.kind === "prompt" ? (job.text ?? "").trim() : "";
  const alarm = (seconds: number): string[] => [
    "BEGIN:VALARM",
    "ACTION:DISPLAY",
    `DESCRIPTION:${escapeText(job.name)}`,
    `TRIGGER:${duration(-seconds)}`,
    "END:VALARM",
  ];
  return [
    "BEGIN:VEVENT",
    `UID:${job.id}.${input.chatId}@${input.host}`,
    `DTSTAMP:${utcDateTime(job.createdAt)}`,
    ...when,
    `SUMMARY:${escapeText(job.name)}`,
    ...(text === "" ? [] : [`DESCRIPTION:${escapeText(text)}`]),
    "TRANSP:TRANSPARENT",
    ...alarm(0),
    ...job.before.flatMap(alarm),
    "END:VEVENT",
  ];
}

/** DTSTART of an instant: its local time with the zone when that names it alone, else the instant in UTC. */
function start(instant: number, zone: string): string {
  const local = toLocal(zone, instant);
  return resolveLocal(zone, local).kind === "normal" ? `DTSTART;TZID=${zone}:${localDateTime(local)}` : `DTSTART:${utcDateTime(instant)}`;
}

function seriesLines(series: Series, zone: string): string[] {
  if (series.kind === "instances") {
    // DTSTART is listed again: ical.js expands an event without RRULE to its RDATEs alone.
    return [start(series.runs[0]!, zone), `RDATE:${series.runs.map(utcDateTime).join(",")}`];
  }
  const local = series.exclude.flatMap((e) => ("local" in e ? [localDateTime(e.local)] : []));
  const instants = series.exclude.flatMap((e) => ("instant" in e ? [utcDateTime(e.instant)] : []));
  return [
    `DTSTART;TZID=${zone}:${localDateTime(series.start)}`,
    `RRULE:${series.rrule}`,
    ...(local.length === 0 ? [] : [`EXDATE;TZID=${zone}:${local.sort().join(",")}`]),
    ...(instants.length === 0 ? [] : [`EXDATE:${instants.sort().join(",")}`]),
    ...(series.add.length === 0 ? [] : [`RDATE:${series.add.map(utcDateTime).join(",")}`]),
  ];
}
