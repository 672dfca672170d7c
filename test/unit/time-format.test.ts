/**
 * How times are shown (docs/time.md "Formats"): chat times relative to today in the chat's zone, the local-time
 * header of prompts, the tools' `Now:` line and spans in error sentences.
 */
import { describe, expect, it } from "vitest";
import { formatChatTime, formatDistance, formatHeader, formatLocalDateTime, formatNowLine, formatSpan, formatWeekdayTime } from "../../src/time";

const ms = (text: string): number => Date.parse(text);

describe("formatChatTime: HH:mm today, d MMM HH:mm this year, d MMM yyyy HH:mm another year", () => {
  const now = "2026-09-26T10:00:00Z";

  it("shows only HH:mm for a time later today in the zone", () => {
    expect(formatChatTime(ms("2026-09-26T16:00:00Z"), "UTC", ms(now))).toBe("16:00");
  });

  it("shows the same instant as tomorrow in Tokyo, where it is already 27 Sep", () => {
    expect(formatChatTime(ms("2026-09-26T16:00:00Z"), "Asia/Tokyo", ms(now))).toBe("27 Sep 01:00");
  });

  it("shows HH:mm for an earlier time today too", () => {
    expect(formatChatTime(ms("2026-09-26T06:00:00Z"), "Europe/Berlin", ms(now))).toBe("08:00");
  });

  it("shows d MMM HH:mm, the day without a leading zero, for another day this year", () => {
    expect(formatChatTime(ms("2026-10-05T07:00:00Z"), "Europe/Berlin", ms(now))).toBe("5 Oct 09:00");
  });

  it("judges 'today' by the zone's midnight, not UTC's (Berlin 23:30 yesterday after local midnight)", () => {
    // now = 27 Sep 00:30 in Berlin; the instant is 26 Sep 23:30 there, though both are 26 Sep in UTC.
    expect(formatChatTime(ms("2026-09-26T21:30:00Z"), "Europe/Berlin", ms("2026-09-26T22:30:00Z"))).toBe("26 Sep 23:30");
  });

  it("adds the year for a time next year", () => {
    expect(formatChatTime(ms("2027-01-03T08:00:00Z"), "Europe/Berlin", ms(now))).toBe("3 Jan 2027 09:00");
  });

  it("adds the year for a time last year", () => {
    expect(formatChatTime(ms("2025-12-31T22:30:00Z"), "Europe/Berlin", ms(now))).toBe("31 Dec 2025 23:30");
  });

  it("judges 'this year' in the zone: on New Year's morning in Tokyo, a time that day is today", () => {
    // now = 2027-01-01 08:30 in Tokyo (still 2026 in UTC); the instant is 2027-01-01 09:30 there.
    expect(formatChatTime(ms("2027-01-01T00:30:00Z"), "Asia/Tokyo", ms("2026-12-31T23:30:00Z"))).toBe("09:30");
  });

  it("shows the wall time of the zone on a DST day (New York, first instant after the gap: 03:00)", () => {
    expect(formatChatTime(ms("2026-03-08T07:00:00Z"), "America/New_York", ms("2026-03-08T12:00:00Z"))).toBe("03:00");
  });
});

describe("formatHeader: [Www yyyy-MM-dd HH:mm Zone]", () => {
  it("gives the docs/time.md example for 06:00Z in Berlin summer", () => {
    expect(formatHeader(ms("2026-09-26T06:00:00Z"), "Europe/Berlin")).toBe("[Sat 2026-09-26 08:00 Europe/Berlin]");
  });

  it("uses the zone's date, not UTC's (Tokyo is already Sunday)", () => {
    expect(formatHeader(ms("2026-09-26T16:00:00Z"), "Asia/Tokyo")).toBe("[Sun 2026-09-27 01:00 Asia/Tokyo]");
  });

  it("drops seconds rather than rounding them", () => {
    expect(formatHeader(ms("2026-12-01T08:59:59Z"), "UTC")).toBe("[Tue 2026-12-01 08:59 UTC]");
  });
});

describe("formatNowLine: Now: Www yyyy-MM-dd HH:mm (Zone, UTC±HH:MM)", () => {
  it("gives the docs/time.md example for 12:03Z in Berlin summer", () => {
    expect(formatNowLine(ms("2026-09-26T12:03:00Z"), "Europe/Berlin")).toBe("Now: Sat 2026-09-26 14:03 (Europe/Berlin, UTC+02:00)");
  });

  it("shows Berlin's winter offset after the fall-back", () => {
    expect(formatNowLine(ms("2026-10-25T01:00:00Z"), "Europe/Berlin")).toBe("Now: Sun 2026-10-25 02:00 (Europe/Berlin, UTC+01:00)");
  });

  it("shows a negative half-hour offset (St John's in winter)", () => {
    expect(formatNowLine(ms("2026-01-15T12:00:00Z"), "America/St_Johns")).toBe("Now: Thu 2026-01-15 08:30 (America/St_Johns, UTC-03:30)");
  });

  it("shows UTC as UTC+00:00", () => {
    expect(formatNowLine(ms("2026-01-15T12:00:00Z"), "UTC")).toBe("Now: Thu 2026-01-15 12:00 (UTC, UTC+00:00)");
  });
});

describe("formatLocalDateTime: yyyy-MM-dd HH:mm in the zone (used in error sentences and notes)", () => {
  it("shows 07:00Z as 09:00 in Berlin summer", () => {
    expect(formatLocalDateTime(ms("2026-09-27T07:00:00Z"), "Europe/Berlin")).toBe("2026-09-27 09:00");
  });

  it("shows the Kathmandu wall time with its 45-minute offset", () => {
    expect(formatLocalDateTime(ms("2026-01-15T12:00:00Z"), "Asia/Kathmandu")).toBe("2026-01-15 17:45");
  });
});

// The contract pins only "3 hours" (in the docs/api.md#jobs sentence); the other units and boundaries are the engine's choice:
// minutes below an hour (at least 1), hours below two days, then days, each rounded down.
describe("formatSpan: a rough length of time, rounded down", () => {
  it.each([
    [10_800_000, "3 hours"],
    [59_000, "1 minute"],
    [61_000, "1 minute"],
    [120_000, "2 minutes"],
    [3_599_999, "59 minutes"],
    [3_600_000, "1 hour"],
    [10_799_999, "2 hours"],
    [172_799_999, "47 hours"],
    [172_800_000, "2 days"],
    [864_000_000, "10 days"],
  ])("%i ms → %s", (span, text) => {
    expect(formatSpan(span)).toBe(text);
  });
});

describe("the understood time of a reminder (issue 14)", () => {
  it("formatWeekdayTime: weekday, day, month and time in the zone, with the year when not this year's", () => {
    const now = ms("2026-12-01T09:00:00Z");
    expect(formatWeekdayTime(ms("2026-12-02T13:30:00Z"), "Europe/Berlin", now)).toBe("Wed 2 Dec 14:30");
    expect(formatWeekdayTime(ms("2027-03-03T09:00:00Z"), "Europe/Berlin", now)).toBe("Wed 3 Mar 2027 10:00");
    // Around midnight the zone decides the day: 23:30Z on 31 Dec is New Year's Day in Berlin.
    expect(formatWeekdayTime(ms("2026-12-31T23:30:00Z"), "Europe/Berlin", now)).toBe("Fri 1 Jan 2027 00:30");
    expect(formatWeekdayTime(ms("2026-12-31T23:30:00Z"), "America/New_York", now)).toBe("Thu 31 Dec 18:30");
  });

  it("formatDistance: minutes, hours and minutes, days and hours, rounded to the minute", () => {
    const min = 60_000;
    expect(formatDistance(20 * min - 3)).toBe("in 20 min");
    expect(formatDistance(12_000)).toBe("in under a minute");
    expect(formatDistance(40_000)).toBe("in 1 min");
    expect(formatDistance(59 * min)).toBe("in 59 min");
    expect(formatDistance(60 * min)).toBe("in 1 h");
    expect(formatDistance(228 * min)).toBe("in 3 h 48 min");
    expect(formatDistance(47 * 60 * min + 59 * min)).toBe("in 47 h 59 min");
    expect(formatDistance(52 * 60 * min)).toBe("in 2 days 4 h");
    expect(formatDistance(7 * 24 * 60 * min + 5 * 60 * min)).toBe("in 7 days");
    expect(formatDistance(3 * 24 * 60 * min)).toBe("in 3 days");
  });
});
