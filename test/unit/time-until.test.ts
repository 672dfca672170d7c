/**
 * A recurring job's `until` (docs/time.md#jobs-that-end-until-and-runsleft): kept as the local date-time it was said,
 * read from a local date-time, a date alone (the end of that day) or an instant (the minute it falls in, in the
 * zone), and turned into an instant in whatever zone the chat has when a run is due.
 */
import { describe, expect, it } from "vitest";
import { readUntil, untilInstant } from "../../src/time";

describe("readUntil", () => {
  it("keeps a local date-time as written, a date alone as its last minute, and an instant as its minute in the zone", () => {
    expect(readUntil("2027-03-31T18:00", "Europe/Berlin")).toEqual({ ok: true, value: "2027-03-31T18:00" });
    expect(readUntil("2027-03-31 18:00:45", "Europe/Berlin")).toEqual({ ok: true, value: "2027-03-31T18:00" });
    expect(readUntil("2027-03-31", "Europe/Berlin")).toEqual({ ok: true, value: "2027-03-31T23:59" });
    expect(readUntil("2027-03-31T21:59:59.999Z", "Europe/Berlin")).toEqual({ ok: true, value: "2027-03-31T23:59" });
    expect(readUntil("2027-03-31T23:59:59+09:00", "America/New_York")).toEqual({ ok: true, value: "2027-03-31T10:59" });
  });

  it("refuses what is no date with the at rules' sentence", () => {
    expect(readUntil("31 March", "Europe/Berlin")).toEqual({
      ok: false,
      error: `"until" must be an ISO 8601 date or date and time such as 2026-12-01T09:00 (read in Europe/Berlin) or 2026-12-01T09:00:00Z; got "31 March".`,
    });
  });
});

describe("untilInstant", () => {
  it("is the minute in whatever zone the chat has now", () => {
    expect(new Date(untilInstant("2027-03-31T23:59", "Europe/Berlin")).toISOString()).toBe("2027-03-31T21:59:00.000Z");
    expect(new Date(untilInstant("2027-03-31T23:59", "Asia/Tokyo")).toISOString()).toBe("2027-03-31T14:59:00.000Z");
  });

  it("ends a minute that occurs twice at the second, and one in a spring-forward gap where the gap ends", () => {
    // 25 Oct 2026, 02:30 in Berlin: 00:30Z (CEST) and 01:30Z (CET). 28 Mar 2027, 02:30 does not exist: 03:00 CEST is 01:00Z.
    expect(new Date(untilInstant("2026-10-25T02:30", "Europe/Berlin")).toISOString()).toBe("2026-10-25T01:30:00.000Z");
    expect(new Date(untilInstant("2027-03-28T02:30", "Europe/Berlin")).toISOString()).toBe("2027-03-28T01:00:00.000Z");
  });
});
