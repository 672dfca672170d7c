/**
 * The page's pure time helpers (page/js/time.js): the one schedule field read as a cron expression, a date and
 * time or a delay; instants in the chat's zone and relative to now; a one-off's wall time for editing.
 */
import { describe, expect, it } from "vitest";
// @ts-expect-error: a plain ES module of the page (checked by its own JSDoc), not part of the TypeScript project.
import { inZone, relative, scheduleOf, wallTime } from "../../page/js/time.js";

describe("scheduleOf", () => {
  it("reads a cron expression, a date and time, and ISO or short delays", () => {
    expect(scheduleOf("0 8 * * 1-5")).toEqual({ cron: "0 8 * * 1-5" });
    expect(scheduleOf("  0  8 * *   1-5 ")).toEqual({ cron: "0 8 * * 1-5" });
    expect(scheduleOf("@daily")).toEqual({ cron: "@daily" });
    expect(scheduleOf("2026-12-01 09:00")).toEqual({ at: "2026-12-01 09:00" });
    expect(scheduleOf("2026-12-01T09:00Z")).toEqual({ at: "2026-12-01T09:00Z" });
    expect(scheduleOf("pt20m")).toEqual({ delay: "PT20M" });
    expect(scheduleOf("P1DT2H")).toEqual({ delay: "P1DT2H" });
    expect(scheduleOf("20m")).toEqual({ delay: "PT20M" });
    expect(scheduleOf("1h 30m")).toEqual({ delay: "PT1H30M" });
    expect(scheduleOf("in 2 days")).toEqual({ delay: "P2D" });
    expect(scheduleOf("in 10 minutes")).toEqual({ delay: "PT10M" });
    expect(scheduleOf("1w2d")).toEqual({ delay: "P1W2D" });
    expect(scheduleOf("   ")).toBeNull();
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
