/**
 * The calendar feed read by ical.js around every daylight-saving change of 2026 in thirteen zones that change in
 * every way there is (a half-hour change at Lord Howe, two hours at Troll, Dublin's winter "daylight", Casablanca's
 * Ramadan, Santiago's and Chatham's southern springs, midnight changes at Havana and Santiago), for schedules dense
 * and sparse (docs/calendar.md#daylight-saving): what ical.js expands is Cuckoo's runs, instant for instant, the gap
 * times it expands out of order (every 45 minutes, every 20 minutes at Lord Howe, hourly at Troll) included.
 */
import ICAL from "ical.js";
import { describe, expect, it } from "vitest";
import { calendarFeed } from "../../src/calendar/feed";
import { transitions } from "../../src/calendar/vtimezone";
import { nextRecurringRun, type RecurringSchedule } from "../../src/jobs/fire";
import { upcomingRuns } from "../../src/jobs/upcoming";
import { jobRecord } from "./records";

const DAY = 86_400_000;
const ZONES = [
  "Europe/Dublin",
  "America/Santiago",
  "Africa/Casablanca",
  "Pacific/Chatham",
  "America/Havana",
  "Australia/Lord_Howe",
  "Antarctica/Troll",
  "America/St_Johns",
  "Asia/Gaza",
  "Europe/Berlin",
  "America/New_York",
  "Pacific/Apia",
  "Asia/Tehran",
];
const SCHEDULES: RecurringSchedule[] = [
  ...["0 * * * *", "*/20 * * * *", "30 2 * * *", "0 0 * * *", "30 1 * * *", "0 0,1,2,3 * * *", "45 23 * * 6", "15 0 * * 0#1", "30 0-3 * * *"].map(
    (cron): RecurringSchedule => ({ type: "cron", cron }),
  ),
  ...[
    ["FREQ=HOURLY;INTERVAL=3", "2026-01-01T00:30"],
    ["FREQ=MINUTELY;INTERVAL=45", "2026-01-01T00:00"],
    ["FREQ=DAILY;BYHOUR=0,2;BYMINUTE=0", "2026-01-01T00:00"],
  ].map(([rrule, start]): RecurringSchedule => ({ type: "rule", rrule: rrule!, start: start! })),
];

describe("the feed read by ical.js around every change of 2026 in thirteen zones", () => {
  for (const zone of ZONES) {
    it(`is Cuckoo's runs in ${zone}`, () => {
      const changes = transitions(zone, Date.UTC(2026, 0, 1), Date.UTC(2027, 0, 1));
      for (const change of changes) {
        const now = change.at - 3 * DAY - 17 * 60_000;
        const to = now + 6 * DAY;
        for (const schedule of SCHEDULES) {
          const job = jobRecord({ id: "k7m2q", name: "n", text: "t", schedule, createdAt: now, nextRunAt: nextRecurringRun(schedule, zone, now) });
          const ics = calendarFeed({ chatId: "1", zone, now, jobs: [job], skippedOf: () => new Set(), host: "h", name: "Cuckoo" });
          const root = new ICAL.Component(ICAL.parse(ics));
          ICAL.TimezoneService.reset();
          for (const z of root.getAllSubcomponents("vtimezone")) ICAL.TimezoneService.register(z);
          const read = new Set<number>();
          const iterator = new ICAL.Event(root.getFirstSubcomponent("vevent")!).iterator();
          for (let n = iterator.next(); n && n.toJSDate().getTime() <= to; n = iterator.next()) read.add(n.toJSDate().getTime());
          const runs: number[] = [];
          for (const t of upcomingRuns(job, schedule, zone, new Set())) {
            if (t > to) break;
            if (t > now) runs.push(t);
          }
          const what = `${JSON.stringify(schedule)} around ${new Date(change.at).toISOString()}`;
          expect(
            runs.filter((t) => !read.has(t)).map((t) => new Date(t).toISOString()),
            `${what}: missing`,
          ).toEqual([]);
          const added = [...read].filter((t) => !runs.includes(t)).map((t) => new Date(t).toISOString());
          expect(added, `${what}: added`).toEqual([]);
        }
      }
    });
  }

  it("lists a gap time that ical.js expands out of order twice, so that its pointer is still on it", () => {
    const schedule: RecurringSchedule = { type: "rule", rrule: "FREQ=MINUTELY;INTERVAL=45", start: "2026-01-01T00:00" };
    const now = Date.parse("2026-03-26T12:00:00Z");
    const job = jobRecord({ id: "k7m2q", name: "n", text: "t", schedule, createdAt: now, nextRunAt: nextRecurringRun(schedule, "Europe/Berlin", now) });
    const ics = calendarFeed({ chatId: "1", zone: "Europe/Berlin", now, jobs: [job], skippedOf: () => new Set(), host: "h", name: "Cuckoo" });
    // 01:30 (00:30Z) comes before 02:15, which ical.js reads as 00:15Z; 03:00 (01:00Z) is Cuckoo's run for both.
    expect(ics).toMatch(/\r\nEXDATE;TZID=Europe\/Berlin:20260329T021500,20260329T021500[,\r]/);
  });
});
