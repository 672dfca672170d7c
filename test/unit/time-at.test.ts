/**
 * One-off times (docs/api.md, docs/time.md): every accepted `at` form with its exact instant, offset-less times in DST
 * gaps and overlaps, the rejections with their sentences, the future rule (60 s grace), the 5-year limit,
 * and `delay` durations with their calendar arithmetic and limits.
 */
import { describe, expect, it } from "vitest";
import { checkOneOff, parseAt, resolveAt, resolveDelay } from "../../src/time";

const BERLIN = "Europe/Berlin";
const iso = (ms: number): string => new Date(ms).toISOString();
const ms = (text: string): number => Date.parse(text);

/** The instant `parseAt` gives, or its error sentence. */
function atIn(input: string, zone = BERLIN): string {
  const r = parseAt(input, zone);
  return r.ok ? iso(r.value.instant) : `error: ${r.error}`;
}

/** The instant `resolveAt` gives against `now`, or its error sentence. */
function resolvedAt(input: string, now: string, zone = BERLIN): string {
  const r = resolveAt(input, zone, ms(now));
  return r.ok ? iso(r.value.instant) : `error: ${r.error}`;
}

async function delayed(input: string, now: string, zone = BERLIN): Promise<string> {
  const r = await resolveDelay(input, zone, ms(now));
  return r.ok ? iso(r.value) : `error: ${r.error}`;
}

const formatError = (input: string, zone = BERLIN): string =>
  `error: "at" must be an ISO 8601 date or date and time such as 2026-12-01T09:00 (read in ${zone}) or 2026-12-01T09:00:00Z; got "${input}".`;
const notRealError = (input: string): string => `error: "at" is not a real date and time: "${input}"; use an ISO 8601 date and time such as 2026-12-01T09:00.`;

describe("parseAt reads every accepted form to its exact instant", () => {
  it("reads a date alone as 09:00 in the chat's zone (Berlin winter: 08:00Z)", () => {
    expect(atIn("2026-12-01")).toBe("2026-12-01T08:00:00.000Z");
  });

  it("reads a date alone as 09:00 in New York (14:00Z)", () => {
    expect(atIn("2026-12-01", "America/New_York")).toBe("2026-12-01T14:00:00.000Z");
  });

  it.each([
    ["2026-12-01T09:00", "2026-12-01T08:00:00.000Z"],
    ["2026-12-01 09:00", "2026-12-01T08:00:00.000Z"],
    ["2026-12-01T09:00:30", "2026-12-01T08:00:30.000Z"],
    ["2026-12-01 09:00:30", "2026-12-01T08:00:30.000Z"],
    ["2026-12-01T09:00:30.5", "2026-12-01T08:00:30.500Z"],
    ["2026-12-01T09:00:30.25", "2026-12-01T08:00:30.250Z"],
    ["2026-12-01T09:00:30.125", "2026-12-01T08:00:30.125Z"],
  ])("reads offset-less %s in Berlin as %s", (input, instant) => {
    expect(atIn(input)).toBe(instant);
  });

  it("reads a summer time in Berlin at UTC+2 (2026-07-01T09:00 → 07:00Z)", () => {
    expect(atIn("2026-07-01T09:00")).toBe("2026-07-01T07:00:00.000Z");
  });

  it.each([
    ["2026-12-01T09:00Z", "2026-12-01T09:00:00.000Z"],
    ["2026-12-01 09:00:30.125Z", "2026-12-01T09:00:30.125Z"],
    ["2026-12-01T09:00+05:30", "2026-12-01T03:30:00.000Z"],
    ["2026-12-01T09:00-03:00", "2026-12-01T12:00:00.000Z"],
    ["2026-12-01T09:00:15+00:00", "2026-12-01T09:00:15.000Z"],
  ])("takes the written offset of %s over the chat's zone (%s)", (input, instant) => {
    expect(atIn(input)).toBe(instant);
  });

  it("reads an explicit offset the same in any chat zone", () => {
    expect(atIn("2026-12-01T09:00+05:30", "Asia/Tokyo")).toBe("2026-12-01T03:30:00.000Z");
  });
});

describe("parseAt on DST days without an offset", () => {
  it("moves a time in the spring-forward gap forward by the gap (Berlin 2026-03-29T02:30 → 03:30 CEST = 01:30Z)", () => {
    const r = parseAt("2026-03-29T02:30", BERLIN);
    expect(r.ok && { instant: iso(r.value.instant), resolution: r.value.resolution }).toEqual({
      instant: "2026-03-29T01:30:00.000Z",
      resolution: "gap",
    });
  });

  it("takes the earlier instant of a time that occurs twice (Berlin 2026-10-25T02:30 → 00:30Z)", () => {
    const r = parseAt("2026-10-25T02:30", BERLIN);
    expect(r.ok && { instant: iso(r.value.instant), resolution: r.value.resolution }).toEqual({
      instant: "2026-10-25T00:30:00.000Z",
      resolution: "ambiguous",
    });
  });

  it("moves a New York gap time forward by the gap (2026-03-08T02:30 → 07:30Z)", () => {
    expect(atIn("2026-03-08T02:30", "America/New_York")).toBe("2026-03-08T07:30:00.000Z");
  });

  it("moves a Lord Howe gap time forward by its 30-minute gap (2026-10-04T02:15 → 02:45 = 15:45Z)", () => {
    expect(atIn("2026-10-04T02:15", "Australia/Lord_Howe")).toBe("2026-10-03T15:45:00.000Z");
  });

  it("ignores DST when the offset is written (2026-03-29T02:30Z is just 02:30Z)", () => {
    expect(atIn("2026-03-29T02:30Z")).toBe("2026-03-29T02:30:00.000Z");
  });
});

describe("parseAt rejects what is not an accepted form, with a sentence showing one", () => {
  it.each(["09:00", "tomorrow", "09/10/2026", "2026-12-01Z", "2026-12-01T09", "2026-12-01T09:00+0530", ""])("rejects %j with the format sentence", (input) => {
    expect(atIn(input)).toBe(formatError(input));
  });

  it("names the chat's zone in the format sentence", () => {
    expect(atIn("tomorrow", "America/New_York")).toBe(formatError("tomorrow", "America/New_York"));
  });

  it.each(["2026-02-30", "2026-13-01", "2026-12-01T24:00", "2026-12-01T09:60", "2026-00-10", "2026-12-00"])(
    "rejects %j, which has the form but no such date or time",
    (input) => {
      expect(atIn(input)).toBe(notRealError(input));
    },
  );
});

describe("the future rule: an at may be up to 60 s in the past", () => {
  const now = "2026-09-27T10:00:00Z"; // 12:00 in Berlin

  it("refuses a time 3 hours ago with the exact sentence of docs/api.md#jobs", () => {
    expect(resolvedAt("2026-09-27T09:00", now)).toBe('error: "at" must be in the future; 2026-09-27 09:00 in Europe/Berlin was 3 hours ago.');
  });

  it("accepts a time 59 s in the past", () => {
    expect(resolvedAt("2026-09-27T09:59:01Z", now)).toBe("2026-09-27T09:59:01.000Z");
  });

  it("accepts a time exactly 60 s in the past", () => {
    expect(resolvedAt("2026-09-27T09:59:00Z", now)).toBe("2026-09-27T09:59:00.000Z");
  });

  it("refuses a time 61 s in the past, naming its wall time in the chat's zone", () => {
    expect(resolvedAt("2026-09-27T09:58:59Z", now)).toBe('error: "at" must be in the future; 2026-09-27 11:58 in Europe/Berlin was 1 minute ago.');
  });

  it("refuses a date alone that was today at 09:00", () => {
    expect(resolvedAt("2026-09-27", now)).toBe('error: "at" must be in the future; 2026-09-27 09:00 in Europe/Berlin was 3 hours ago.');
  });

  it("counts days for a time long past", () => {
    expect(resolvedAt("2026-09-17T12:00", now)).toBe('error: "at" must be in the future; 2026-09-17 12:00 in Europe/Berlin was 10 days ago.');
  });

  it("names the field it checks (delay) in the same sentence", () => {
    const r = checkOneOff("delay", ms("2026-09-27T07:00:00Z"), BERLIN, ms(now));
    expect(r).toEqual({
      ok: false,
      error: '"delay" must be in the future; 2026-09-27 09:00 in Europe/Berlin was 3 hours ago.',
    });
  });
});

describe("the 5-year limit on an at", () => {
  const now = "2026-09-27T10:00:00Z"; // 12:00 in Berlin

  it("accepts the same wall time 5 years on", () => {
    expect(resolvedAt("2031-09-27T12:00", now)).toBe("2031-09-27T10:00:00.000Z");
  });

  it("refuses a minute past 5 years with a sentence naming the limit", () => {
    expect(resolvedAt("2031-09-27T12:01", now)).toBe(
      'error: "at" must be at most 5 years ahead (until 2031-09-27 12:00 in Europe/Berlin); got 2031-09-27 12:01.',
    );
  });
});

describe("leap days in an at", () => {
  const now = "2026-09-27T10:00:00Z";

  it("accepts 2028-02-29 (a leap year) at 09:00 Berlin", () => {
    expect(resolvedAt("2028-02-29", now)).toBe("2028-02-29T08:00:00.000Z");
  });

  it("refuses 2027-02-29 (not a leap year)", () => {
    expect(resolvedAt("2027-02-29", now)).toBe(notRealError("2027-02-29"));
  });
});

describe("resolveDelay turns an ISO 8601 duration into an instant from now", () => {
  const now = "2026-09-27T10:00:00Z";

  it("adds PT20M", async () => {
    expect(await delayed("PT20M", now)).toBe("2026-09-27T10:20:00.000Z");
  });

  it("adds P1DT2H", async () => {
    expect(await delayed("P1DT2H", now)).toBe("2026-09-28T12:00:00.000Z");
  });

  it("adds P1W as seven days", async () => {
    expect(await delayed("P1W", now)).toBe("2026-10-04T10:00:00.000Z");
  });

  it("keeps the wall time for P1D across the spring-forward (13:00 CET → 13:00 CEST = 11:00Z)", async () => {
    expect(await delayed("P1D", "2026-03-28T12:00:00Z")).toBe("2026-03-29T11:00:00.000Z");
  });

  it("adds exactly 24 hours for PT24H across the spring-forward", async () => {
    expect(await delayed("PT24H", "2026-03-28T12:00:00Z")).toBe("2026-03-29T12:00:00.000Z");
  });

  it("keeps the wall time for P1D across the fall-back (12:00 CEST → 12:00 CET = 11:00Z)", async () => {
    expect(await delayed("P1D", "2026-10-24T10:00:00Z")).toBe("2026-10-25T11:00:00.000Z");
  });

  it("clamps P1M from 31 Jan to 28 Feb in a common year", async () => {
    expect(await delayed("P1M", "2026-01-31T12:00:00Z")).toBe("2026-02-28T12:00:00.000Z");
  });

  it("clamps P1M from 31 Jan to 29 Feb in a leap year", async () => {
    expect(await delayed("P1M", "2028-01-31T12:00:00Z")).toBe("2028-02-29T12:00:00.000Z");
  });

  // The contract is silent on case; ISO 8601 writes designators in upper case. The engine accepts lower case.
  it("accepts lower-case designators (pt20m, p1dt2h)", async () => {
    expect(await delayed("pt20m", now)).toBe("2026-09-27T10:20:00.000Z");
    expect(await delayed("p1dt2h", now)).toBe("2026-09-28T12:00:00.000Z");
  });
});

describe("resolveDelay limits: 1 minute to 5 years", () => {
  const now = "2026-09-27T10:00:00Z";
  const rangeError = (input: string): string => `error: "delay" must be from 1 minute (PT1M) to 5 years (P5Y); got "${input}".`;
  const durationError = (input: string): string => `error: "delay" must be an ISO 8601 duration such as PT20M or P1DT2H; got "${input}".`;

  it("accepts exactly PT1M", async () => {
    expect(await delayed("PT1M", now)).toBe("2026-09-27T10:01:00.000Z");
  });

  it("accepts exactly P5Y", async () => {
    expect(await delayed("P5Y", now)).toBe("2031-09-27T10:00:00.000Z");
  });

  it.each(["PT30S", "PT59S", "P0D", "P6Y", "P5YT1M"])("refuses %s as out of range", async (input) => {
    expect(await delayed(input, now)).toBe(rangeError(input));
  });

  it.each(["20m", "-PT20M", "P", "PT", "PT1.5M", "20 minutes", ""])("refuses %j as not a duration", async (input) => {
    expect(await delayed(input, now)).toBe(durationError(input));
  });
});
