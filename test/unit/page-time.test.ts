/**
 * The page's pure time helpers (page/js/time.js): a job's schedule as the dialog's field shows it (what the bot
 * reads back), what is left of a job that ends, instants in the chat's zone and relative to now.
 */
import { describe, expect, it } from "vitest";
// @ts-expect-error: a plain ES module of the page (checked by its own JSDoc), not part of the TypeScript project.
import { inZone, leftOf, relative, scheduleField, wallTime } from "../../page/js/time.js";

describe("a job's schedule in the dialog's field", () => {
  it("shows what the bot reads back: a one-off's wall time, a cron, a rule after its DTSTART", () => {
    expect(scheduleField({ at: "2026-12-01T07:05:00.000Z" }, "America/New_York")).toBe("2026-12-01 02:05");
    expect(scheduleField({ cron: "0 8 * * 1-5" }, "UTC")).toBe("0 8 * * 1-5");
    expect(scheduleField({ rrule: "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU", start: "2026-12-08T10:00" }, "Europe/Berlin")).toBe(
      "DTSTART:20261208T1000 RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=TU",
    );
  });

  it("says what is left of a job that ends", () => {
    const now = Date.UTC(2026, 11, 1, 10);
    expect(leftOf({ runsLeft: 3, until: null }, "Europe/Berlin", now)).toBe("3 runs left");
    expect(leftOf({ runsLeft: 1 }, "Europe/Berlin", now)).toBe("1 run left");
    expect(leftOf({ runsLeft: 0, until: "2026-12-31T23:59" }, "Europe/Berlin", now)).toBe("last run");
    expect(leftOf({ runsLeft: 2, until: "2026-12-31T23:59" }, "Europe/Berlin", now)).toBe("2 runs left · until Thu 31 Dec");
    // The end as it was said, in any zone: its time when it is not the day's last minute, its year when not this one.
    expect(leftOf({ until: "2026-12-24T18:00" }, "Asia/Tokyo", now)).toBe("until Thu 24 Dec 18:00");
    expect(leftOf({ until: "2027-03-31T23:59" }, "America/New_York", now)).toBe("until Wed 31 Mar 2027");
    expect(leftOf({ runsLeft: null, until: null }, "UTC", now)).toBe("");
    expect(leftOf({}, "UTC", now)).toBe("");
  });
});

describe("times in the chat's zone", () => {
  const now = Date.UTC(2026, 10, 30, 12);
  it("shows an instant on the zone's wall clock, with the year only when it is another", () => {
    expect(inZone(Date.UTC(2026, 11, 1, 7), "Europe/Berlin", now)).toBe("Tue 1 Dec 08:00");
    expect(inZone(Date.UTC(2027, 0, 1, 0), "Asia/Tokyo", now)).toBe("Fri 1 Jan 2027 09:00");
    expect(wallTime(Date.UTC(2026, 11, 1, 7, 5), "America/New_York")).toBe("2026-12-01 02:05");
  });
  it("says how far an instant is from now", () => {
    expect(relative(now + 3 * 3_600_000 + 60_000, now)).toBe("in 3 h");
    expect(relative(now + 25 * 60_000, now)).toBe("in 25 min");
    expect(relative(now + 3 * 86_400_000, now)).toBe("in 3 d");
    expect(relative(now + 30_000, now)).toBe("in under a minute");
    expect(relative(now - 5 * 60_000, now)).toBe("5 min ago");
  });
});
