/**
 * The calendar feed read by a maintained iCalendar library (ical.js, Mozilla's): every run it expands over the next 60
 * days, and over windows holding a spring and an autumn change in Europe/Berlin, America/New_York and
 * Australia/Lord_Howe, is a run Cuckoo makes, and every run Cuckoo makes is there (docs/calendar.md).
 */
import ICAL from "ical.js";
import { describe, expect, it } from "vitest";
import { calendarFeed } from "../../src/calendar/feed";
import { nextRecurringRun, type RecurringSchedule, type Skipped } from "../../src/jobs/fire";
import type { JobRecord } from "../../src/jobs/records";
import { upcomingRuns } from "../../src/jobs/upcoming";
import { preview, untilOfInstant } from "../../src/time";
import { jobRecord } from "./records";

const DAY = 86_400_000;

/**
 * The instants ical.js expands the feed's only event to, up to `to`, distinct and in order (RFC 5545's recurrence set
 * is a set; ical.js gives an instant twice where its reading of a fall-back hour and Cuckoo's addition meet).
 */
function expand(ics: string, to: number): { runs: number[] } {
  const root = new ICAL.Component(ICAL.parse(ics));
  ICAL.TimezoneService.reset();
  for (const zone of root.getAllSubcomponents("vtimezone")) ICAL.TimezoneService.register(zone);
  const event = new ICAL.Event(root.getFirstSubcomponent("vevent")!);
  const it = event.iterator();
  const seen = new Set<number>();
  // The iterator answers undefined once it is done.
  for (let next = it.next(); next && next.toJSDate().getTime() <= to; next = it.next()) {
    seen.add(next.toJSDate().getTime());
  }
  return { runs: [...seen].sort((a, b) => a - b) };
}

/** A schedule, with its end (`untilDays` after now, at that minute) and the n-th run to skip by hand. */
type Case = { schedule: RecurringSchedule; untilDays?: number; runsLeft?: number; skip?: number };

/** The job of a case as the chat's object holds it at `now`: its next run Cuckoo's. */
function jobOf(c: Case, zone: string, now: number): JobRecord {
  const nextRunAt = nextRecurringRun(c.schedule, zone, now);
  return jobRecord({
    id: "k7m2q",
    name: "Water the plants",
    text: "Water the plants",
    schedule: c.schedule,
    createdAt: now - DAY,
    nextRunAt,
    until: c.untilDays === undefined ? null : untilOfInstant(now + c.untilDays * DAY, zone),
    runsLeft: c.runsLeft ?? null,
  });
}

/** Cuckoo's own runs of the job after `now` up to `to`. */
function cuckooRuns(job: JobRecord, zone: string, now: number, to: number, skipped: Skipped): number[] {
  const out: number[] = [];
  if (job.schedule.type !== "cron" && job.schedule.type !== "rule") return out;
  for (const t of upcomingRuns(job, job.schedule, zone, skipped)) {
    if (t > to) break;
    if (t > now) out.push(t);
  }
  return out;
}

/** The next 20 runs POST /admin/preview answers for the case (its own engine, its ends). */
async function previewed(c: Case, job: JobRecord, zone: string, now: number): Promise<string[]> {
  const input = c.schedule.type === "cron" ? { cron: c.schedule.cron } : { rrule: c.schedule.rrule, start: c.schedule.start };
  const answer = await preview(input, zone, now, 20, { until: job.until, runsLeft: job.runsLeft });
  if (!answer.ok) throw new Error(answer.error);
  return answer.value.occurrences;
}

async function check(c: Case, zone: string, now: number, days = 60): Promise<{ ics: string; runs: number[] }> {
  const job = jobOf(c, zone, now);
  const skipped: Skipped = new Set(c.skip === undefined ? [] : [cuckooRuns(job, zone, now, now + days * DAY, new Set())[c.skip]!]);
  const ics = calendarFeed({ chatId: "123456789", zone, now, jobs: [job], skippedOf: () => skipped, host: "cuckoo.example", name: "Cuckoo" });
  const to = now + days * DAY;
  const expected = cuckooRuns(job, zone, now, to, skipped);
  const { runs } = expand(ics, to);
  expect(runs.map((t) => new Date(t).toISOString())).toStrictEqual(expected.map((t) => new Date(t).toISOString()));
  // Cuckoo's runs here are its preview's (a run skipped by hand is the job's, not the schedule's).
  if (c.skip === undefined) {
    const answered = await previewed(c, job, zone, now);
    const n = Math.min(20, expected.length);
    expect(answered.slice(0, n)).toStrictEqual(expected.slice(0, n).map((t) => new Date(t).toISOString()));
    if (answered.length > n) expect(Date.parse(answered[n]!)).toBeGreaterThan(to);
  }
  return { ics, runs };
}

const cron = (expression: string): RecurringSchedule => ({ type: "cron", cron: expression });
const rule = (rrule: string, start: string): RecurringSchedule => ({ type: "rule", rrule, start });

/** A few days before each change of 2027 in the three zones. */
const WINDOWS: Record<string, [string, string]> = {
  "Europe/Berlin": ["2027-03-25T12:00:00Z", "2027-10-28T12:00:00Z"],
  "America/New_York": ["2027-03-11T12:00:00Z", "2027-11-04T12:00:00Z"],
  "Australia/Lord_Howe": ["2027-04-01T12:00:00Z", "2027-09-30T12:00:00Z"],
};

const CASES: Record<string, Case> = {
  "a daily gap time (02:30)": { schedule: cron("30 2 * * *") },
  "an hourly cron": { schedule: cron("0 * * * *") },
  "every 30 minutes": { schedule: cron("*/30 * * * *") },
  "a fixed time that occurs twice (01:30)": { schedule: cron("30 1 * * *") },
  "two fixed times around the change": { schedule: cron("0,30 1,2 * * *") },
  "weekdays at 8": { schedule: cron("0 8 * * 1-5") },
  "the last day at 9": { schedule: cron("0 9 L * *") },
  "three days before the last": { schedule: cron("0 9 L-3 * *") },
  "the last Friday at 17": { schedule: cron("0 17 * * 5L") },
  "the first Monday at 9": { schedule: cron("0 9 * * 1#1") },
  "the last weekday at 9 and 18": { schedule: cron("0 9,18 LW * *") },
  "the weekday nearest the 15th": { schedule: cron("0 9 15W * *") },
  "every 13th and every Friday": { schedule: cron("0 12 13 * 5") },
  "odd days that are Sundays at 2:30": { schedule: cron("30 2 */2 * 0") },
  "an hourly rule": { schedule: rule("FREQ=HOURLY", "2026-12-01T00:00") },
  "every 90 minutes": { schedule: rule("FREQ=MINUTELY;INTERVAL=90", "2026-12-01T00:15") },
  "every other Tuesday at 10": { schedule: rule("FREQ=WEEKLY;INTERVAL=2;BYDAY=TU", "2026-12-08T10:00") },
  "daily at 2:30 by rule": { schedule: rule("FREQ=DAILY;BYHOUR=2;BYMINUTE=30", "2026-12-01T02:30") },
  "the last working day": { schedule: rule("FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1", "2026-12-01T17:00") },
  "every 3 days at 9, 20 runs": { schedule: rule("FREQ=DAILY;INTERVAL=3", "2026-12-01T09:00"), runsLeft: 20 },
  "hourly, 40 runs": { schedule: cron("0 * * * *"), runsLeft: 40 },
  "daily at 2:30 until 4 days on": { schedule: cron("30 2 * * *"), untilDays: 4 },
  "hourly until 3 days on": { schedule: cron("0 * * * *"), untilDays: 3 },
  "weekdays with the third run skipped": { schedule: cron("0 8 * * 1-5"), skip: 2 },
  "hourly with the 70th run skipped": { schedule: cron("0 * * * *"), skip: 69 },
};

describe("the feed read by ical.js is Cuckoo's runs", () => {
  for (const [zone, windows] of Object.entries(WINDOWS)) {
    for (const [name, c] of Object.entries(CASES)) {
      it(`${name} in ${zone}, over its spring and autumn changes`, async () => {
        for (const at of windows) await check(c, zone, Date.parse(at), 10);
      });
    }
    it(`every case over the next 60 days from 2026-12-07 in ${zone}`, async () => {
      for (const c of Object.values(CASES)) await check(c, zone, Date.parse("2026-12-07T17:00:00Z"));
    });
  }

  it("adds both runs of an hourly rule's repeated hour as UTC RDATEs", async () => {
    const now = Date.parse("2027-10-30T12:00:00Z");
    const { ics, runs } = await check({ schedule: rule("FREQ=HOURLY", "2027-10-30T00:00") }, "Europe/Berlin", now, 2);
    expect(ics).toMatch(/\r\nRDATE:[^\r]*20271031T000000Z,20271031T010000Z[,\r]/);
    // 02:00 comes twice on 31 October: both runs, an hour apart.
    expect(runs.map((t) => new Date(t).toISOString())).toContain("2027-10-31T00:00:00.000Z");
    expect(runs.map((t) => new Date(t).toISOString())).toContain("2027-10-31T01:00:00.000Z");
  });

  it("excludes a gap time by its local time and adds the gap's end", async () => {
    const { ics } = await check({ schedule: cron("30 2 * * *") }, "Europe/Berlin", Date.parse("2027-03-25T12:00:00Z"), 10);
    // And, the year round, the spring's gap and the autumn's repeated 02:30 (which ical.js reads as its second instant).
    expect(ics).toContain("\r\nEXDATE;TZID=Europe/Berlin:20270328T023000,20280326T023000\r\nEXDATE:20271031T013000Z\r\n");
    expect(ics).toContain("\r\nRDATE:20270328T010000Z,20271031T003000Z,20280326T010000Z\r\n");
  });
});
