/**
 * The calendar feed's text (docs/calendar.md): lines folded at 75 octets and text escaped as RFC 5545 says, a zone's
 * VTIMEZONE from its real transitions, cron expressions as the RRULE that says them, and what each kind of job is in
 * the feed. Its instants, read by ical.js, are test/unit/calendar-feed.test.ts's.
 */
import ICAL from "ical.js";
import { describe, expect, it } from "vitest";
import { cronRrule } from "../../src/calendar/cron-rule";
import { calendarFeed } from "../../src/calendar/feed";
import { listedAgain } from "../../src/calendar/icaljs";
import { duration, escapeText, fold, utcOffset } from "../../src/calendar/ics";
import { vtimezone } from "../../src/calendar/vtimezone";
import { parseCron } from "../../src/time";
import { jobRecord } from "./records";

const NOW = Date.parse("2026-12-07T17:00:00Z");
const octets = (line: string) => new TextEncoder().encode(line).length;

describe("the text of a feed", () => {
  it("folds a long line at 75 octets without splitting a character, and unfolds to the same", () => {
    const line = `DESCRIPTION:${"Grüße 🌷 ".repeat(20)}`;
    const folded = fold(line);
    const parts = folded.split("\r\n");
    expect(parts.length).toBeGreaterThan(2);
    for (const part of parts) expect(octets(part)).toBeLessThanOrEqual(75);
    for (const part of parts.slice(1)) expect(part.startsWith(" ")).toBe(true);
    expect(parts.map((p, i) => (i === 0 ? p : p.slice(1))).join("")).toBe(line);
    expect(fold("SUMMARY:short")).toBe("SUMMARY:short");
  });

  it("escapes backslash, semicolon, comma and line breaks in text", () => {
    expect(escapeText("a\\b; c, d\ne\r\nf")).toBe("a\\\\b\\; c\\, d\\ne\\nf");
  });

  it("writes offsets and durations as RFC 5545 does", () => {
    expect([utcOffset(7_200_000), utcOffset(-12_600_000), utcOffset(37_800_000), utcOffset(0)]).toEqual(["+0200", "-0330", "+1030", "+0000"]);
    expect([duration(0), duration(-900), duration(-93_600), duration(-86_400), duration(-90)]).toEqual(["PT0S", "-PT15M", "-P1DT2H", "-P1D", "-PT1M30S"]);
  });
});

describe("a zone as a VTIMEZONE", () => {
  it("keeps Europe/Berlin's changes as yearly rules on the last Sundays of March and October", () => {
    expect(vtimezone("Europe/Berlin", NOW)).toEqual([
      "BEGIN:VTIMEZONE",
      "TZID:Europe/Berlin",
      "BEGIN:STANDARD",
      "DTSTART:19700101T000000",
      "TZOFFSETFROM:+0100",
      "TZOFFSETTO:+0100",
      "END:STANDARD",
      "BEGIN:DAYLIGHT",
      "DTSTART:20250330T020000",
      "TZOFFSETFROM:+0100",
      "TZOFFSETTO:+0200",
      "RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU",
      "END:DAYLIGHT",
      "BEGIN:STANDARD",
      "DTSTART:20251026T030000",
      "TZOFFSETFROM:+0200",
      "TZOFFSETTO:+0100",
      "RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU",
      "END:STANDARD",
      "END:VTIMEZONE",
    ]);
  });

  it("keeps Australia/Lord_Howe's half-hour changes (first Sundays of April and October), and a zone without changes as one offset", () => {
    const lordHowe = vtimezone("Australia/Lord_Howe", NOW);
    expect(lordHowe).toContain("RRULE:FREQ=YEARLY;BYMONTH=4;BYDAY=1SU");
    expect(lordHowe).toContain("RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=1SU");
    expect(lordHowe).toContain("TZOFFSETTO:+1030");
    expect(vtimezone("Asia/Tokyo", NOW)).toEqual([
      "BEGIN:VTIMEZONE",
      "TZID:Asia/Tokyo",
      "BEGIN:STANDARD",
      "DTSTART:19700101T000000",
      "TZOFFSETFROM:+0900",
      "TZOFFSETTO:+0900",
      "END:STANDARD",
      "END:VTIMEZONE",
    ]);
  });
});

describe("a cron expression as an RRULE", () => {
  const rrule = (expression: string) => {
    const cron = parseCron(expression);
    if (!cron.ok) throw new Error(cron.error);
    return cronRrule(cron.value);
  };

  it("says each form one can, and none for the forms no RRULE says", () => {
    expect(rrule("0 8 * * 1-5")).toBe("FREQ=DAILY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=8;BYMINUTE=0");
    expect(rrule("*/30 9-17 1,15 * *")).toBe("FREQ=DAILY;BYMONTHDAY=1,15;BYHOUR=9,10,11,12,13,14,15,16,17;BYMINUTE=0,30");
    expect(rrule("0 22-2 * NOV-FEB *")).toBe("FREQ=DAILY;BYMONTH=1,2,11,12;BYHOUR=0,1,2,22,23;BYMINUTE=0");
    expect(rrule("0 9 L-2 * *")).toBe("FREQ=MONTHLY;BYMONTHDAY=-3;BYHOUR=9;BYMINUTE=0");
    expect(rrule("0 17 * * FRIL")).toBe("FREQ=MONTHLY;BYDAY=-1FR;BYHOUR=17;BYMINUTE=0");
    expect(rrule("0 9 * * MON#2")).toBe("FREQ=MONTHLY;BYDAY=2MO;BYHOUR=9;BYMINUTE=0");
    expect(rrule("0 9 LW * *")).toBe("FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1;BYHOUR=9;BYMINUTE=0");
    expect(rrule("0 0 */2 * 1")).toBe("FREQ=DAILY;BYMONTHDAY=1,3,5,7,9,11,13,15,17,19,21,23,25,27,29,31;BYDAY=MO;BYHOUR=0;BYMINUTE=0");
    for (const none of ["0 12 13 * 5", "0 9 15W * *", "0 9 L-2W * *", "0 9,18 LW * *"]) expect(rrule(none)).toBeNull();
  });
});

describe("what each job is in the feed", () => {
  const feed = (jobs: Parameters<typeof calendarFeed>[0]["jobs"], zone = "Europe/Berlin") =>
    calendarFeed({ chatId: "123456789", zone, now: NOW, jobs, skippedOf: () => new Set(), host: "cuckoo.example", name: "Cuckoo" });
  const events = (text: string) => text.split("BEGIN:VEVENT\r\n").slice(1);

  it("a one-off is an event at its time with an alarm then and one per notice ahead, its text the description", () => {
    const at = Date.parse("2026-12-08T08:00:00Z");
    const job = {
      ...jobRecord({ id: "k7m2q", name: "Dentist", text: "Call the dentist,\nthen book", schedule: { type: "at", at }, createdAt: NOW }),
      before: [900],
    };
    expect(events(feed([job]))).toEqual([
      [
        "UID:k7m2q.123456789@cuckoo.example",
        "DTSTAMP:20261207T170000Z",
        "DTSTART;TZID=Europe/Berlin:20261208T090000",
        "SUMMARY:Dentist",
        "DESCRIPTION:Call the dentist\\,\\nthen book",
        "TRANSP:TRANSPARENT",
        "BEGIN:VALARM",
        "ACTION:DISPLAY",
        "DESCRIPTION:Dentist",
        "TRIGGER:PT0S",
        "END:VALARM",
        "BEGIN:VALARM",
        "ACTION:DISPLAY",
        "DESCRIPTION:Dentist",
        "TRIGGER:-PT15M",
        "END:VALARM",
        "END:VEVENT",
        "END:VCALENDAR",
        "",
      ].join("\r\n"),
    ]);
  });

  it("a one-off at the second pass of a repeated hour is written as its instant", () => {
    const at = Date.parse("2027-10-31T01:30:00Z"); // 02:30 CET, after 02:30 CEST
    const job = jobRecord({ id: "k7m2q", name: "Late", text: "x", schedule: { type: "at", at }, createdAt: NOW });
    expect(events(feed([job]))[0]).toContain("\r\nDTSTART:20271031T013000Z\r\n");
  });

  it("a watcher by its name only; a paused job, one only its hook runs and one past its time not at all", () => {
    const watcher = {
      ...jobRecord({ id: "w1", name: "Price", text: null, schedule: { type: "cron", cron: "0 12 * * *" }, createdAt: NOW }),
      kind: "watcher" as const,
    };
    const next = Date.parse("2026-12-08T11:00:00Z");
    const paused = { ...jobRecord({ id: "p1", name: "Paused", text: "x", schedule: { type: "cron", cron: "0 9 * * *" }, createdAt: NOW }), enabled: false };
    const hooked = jobRecord({ id: "h1", name: "Hooked", text: "x", schedule: { type: "hook" }, createdAt: NOW });
    const past = jobRecord({ id: "o1", name: "Past", text: "x", schedule: { type: "at", at: NOW - 60_000 }, createdAt: NOW });
    const text = feed([{ ...watcher, command: "curl secret", nextRunAt: next }, paused, hooked, past]);
    const [only] = events(text);
    expect(events(text)).toHaveLength(1);
    expect(only).toContain("SUMMARY:Price\r\nTRANSP:TRANSPARENT\r\n");
    expect(text).not.toMatch(/curl secret|DESCRIPTION:x|Paused|Hooked|Past/);
  });

  it("reads as a calendar to ical.js: its name, zone and events", () => {
    const job = {
      ...jobRecord({ id: "k7m2q", name: "Standup", text: "Plan", schedule: { type: "cron", cron: "0 8 * * 1-5" }, createdAt: NOW }),
      nextRunAt: NOW + 3_600_000,
    };
    const root = new ICAL.Component(ICAL.parse(feed([job], "America/New_York")));
    expect(root.getFirstPropertyValue("x-wr-calname")).toBe("Cuckoo");
    expect(root.getFirstPropertyValue("x-wr-timezone")).toBe("America/New_York");
    expect(root.getFirstSubcomponent("vtimezone")!.getFirstPropertyValue("tzid")).toBe("America/New_York");
    const event = new ICAL.Event(root.getFirstSubcomponent("vevent")!);
    expect([event.uid, event.summary, event.description, event.isRecurring()]).toEqual(["k7m2q.123456789@cuckoo.example", "Standup", "Plan", true]);
  });
});

describe("how ical.js passes over an EXDATE", () => {
  it("lists again an exclusion ical.js expands after a later instance, as often as it would pass it, and nothing else", () => {
    // In order: 30, then 15 (out of order, excluded), then the RDATE 60 and 105.
    expect(listedAgain([30, 15, 105], [60], [15])).toEqual([15]);
    // Two later instances before it: listed twice more.
    expect(listedAgain([20, 30, 15, 105], [], [15])).toEqual([15, 15]);
    // In order: nothing to add.
    expect(listedAgain([15, 30, 105], [60], [15])).toEqual([]);
    expect(listedAgain([30, 105], [], [])).toEqual([]);
  });
});
