/**
 * Zones (docs/time.md): which names a chat may set, the exact sentence for the rest, the `UTC±HH:MM` form, and
 * how a wall-clock time maps to instants on normal days, fall-back overlaps and spring-forward gaps.
 */
import { describe, expect, it } from "vitest";
import { formatOffset, instantOfWall, parseZone, type Resolution, resolveLocal } from "../../src/time";

const iso = (ms: number): string => new Date(ms).toISOString();
/** A wall-clock time as the engine's "local epoch" milliseconds: `wall("2026-03-29T02:30")`. */
const wall = (text: string): number => Date.parse(`${text}:00Z`);

/** A resolution with its instants as RFC 3339 strings, so a failure shows readable times. */
function show(r: Resolution): Record<string, string> {
  switch (r.kind) {
    case "normal":
      return { kind: r.kind, instant: iso(r.instant) };
    case "ambiguous":
      return { kind: r.kind, first: iso(r.first), second: iso(r.second) };
    case "gap":
      return { kind: r.kind, shifted: iso(r.shifted), transition: iso(r.transition) };
  }
}

const unknown = (input: string): string => `Unknown time zone "${input}". Use an IANA name such as Europe/Berlin or America/New_York.`;

describe("parseZone accepts IANA names", () => {
  it.each([
    ["Europe/Berlin", "Europe/Berlin"],
    ["America/New_York", "America/New_York"],
    ["UTC", "UTC"],
    ["Etc/GMT+3", "Etc/GMT+3"],
  ])("keeps %s as %s", (input, stored) => {
    expect(parseZone(input)).toEqual({ ok: true, value: stored });
  });

  it.each([
    ["europe/berlin", "Europe/Berlin"],
    ["EUROPE/BERLIN", "Europe/Berlin"],
    ["america/new_york", "America/New_York"],
    ["utc", "UTC"],
  ])("stores the IANA spelling of a name typed in another case (%s → %s)", (input, stored) => {
    expect(parseZone(input)).toEqual({ ok: true, value: stored });
  });

  // The contract is silent on spelling; a user who types a current name in another case expects that name back,
  // not the older link the runtime's ICU folds it into (Asia/Calcutta, Europe/Kiev).
  it.each([
    ["asia/kolkata", "Asia/Kolkata"],
    ["europe/kyiv", "Europe/Kyiv"],
  ])("stores a current name typed in another case as that current name (%s → %s)", (input, stored) => {
    expect(parseZone(input)).toEqual({ ok: true, value: stored });
  });

  it("ignores spaces around the name", () => {
    expect(parseZone("  Europe/Berlin ")).toEqual({ ok: true, value: "Europe/Berlin" });
  });
});

describe("parseZone converts Windows ids to IANA", () => {
  it.each([
    ["W. Europe Standard Time", "Europe/Berlin"],
    ["Eastern Standard Time", "America/New_York"],
    ["Tokyo Standard Time", "Asia/Tokyo"],
    ["India Standard Time", "Asia/Kolkata"],
    ["FLE Standard Time", "Europe/Kyiv"],
  ])("stores %s as %s", (input, stored) => {
    expect(parseZone(input)).toEqual({ ok: true, value: stored });
  });

  it.each([
    ["w. europe standard time", "Europe/Berlin"],
    ["EASTERN STANDARD TIME", "America/New_York"],
    ["tokyo standard TIME", "Asia/Tokyo"],
  ])("reads a Windows id in any case (%s → %s)", (input, stored) => {
    expect(parseZone(input)).toEqual({ ok: true, value: stored });
  });
});

describe("parseZone rejects what is not a zone with the docs/time.md sentence, quoting the input as given", () => {
  it("rejects Mars/Olympus with the exact sentence of docs/time.md", () => {
    expect(parseZone("Mars/Olympus")).toEqual({
      ok: false,
      error: 'Unknown time zone "Mars/Olympus". Use an IANA name such as Europe/Berlin or America/New_York.',
    });
  });

  it.each(["Local", "local", "+03:00", "-05:00", "GMT+3", "UTC+3", "", "Mars/Olympus", "Berlin"])("rejects %j", (input) => {
    expect(parseZone(input)).toEqual({ ok: false, error: unknown(input) });
  });
});

describe("formatOffset", () => {
  it("shows Berlin in summer as UTC+02:00 and in winter as UTC+01:00", () => {
    expect(formatOffset("Europe/Berlin", Date.parse("2026-07-01T12:00:00Z"))).toBe("UTC+02:00");
    expect(formatOffset("Europe/Berlin", Date.parse("2026-01-15T12:00:00Z"))).toBe("UTC+01:00");
  });

  it("shows a negative half-hour offset (America/St_Johns in winter) as UTC-03:30", () => {
    expect(formatOffset("America/St_Johns", Date.parse("2026-01-15T12:00:00Z"))).toBe("UTC-03:30");
  });

  it("shows a 45-minute offset (Asia/Kathmandu) as UTC+05:45", () => {
    expect(formatOffset("Asia/Kathmandu", Date.parse("2026-01-15T12:00:00Z"))).toBe("UTC+05:45");
  });

  it("shows UTC as UTC+00:00", () => {
    expect(formatOffset("UTC", Date.parse("2026-01-15T12:00:00Z"))).toBe("UTC+00:00");
  });

  it("shows Lord Howe as UTC+10:30 in its winter and UTC+11:00 in its summer", () => {
    expect(formatOffset("Australia/Lord_Howe", Date.parse("2026-07-15T12:00:00Z"))).toBe("UTC+10:30");
    expect(formatOffset("Australia/Lord_Howe", Date.parse("2026-01-15T12:00:00Z"))).toBe("UTC+11:00");
  });

  it("changes at the transition instant itself (Berlin, 2026-03-29T01:00Z)", () => {
    expect(formatOffset("Europe/Berlin", Date.parse("2026-03-29T00:59:59Z"))).toBe("UTC+01:00");
    expect(formatOffset("Europe/Berlin", Date.parse("2026-03-29T01:00:00Z"))).toBe("UTC+02:00");
  });
});

describe("resolveLocal on ordinary wall times", () => {
  it("maps a summer time in Berlin to one instant two hours earlier in UTC", () => {
    expect(show(resolveLocal("Europe/Berlin", wall("2026-07-01T12:00")))).toEqual({
      kind: "normal",
      instant: "2026-07-01T10:00:00.000Z",
    });
  });

  it("maps a winter time in New York to one instant five hours later in UTC", () => {
    expect(show(resolveLocal("America/New_York", wall("2026-01-15T09:00")))).toEqual({
      kind: "normal",
      instant: "2026-01-15T14:00:00.000Z",
    });
  });

  it("treats the first wall time after a gap as normal (Berlin 03:00 on 2026-03-29)", () => {
    expect(show(resolveLocal("Europe/Berlin", wall("2026-03-29T03:00")))).toEqual({
      kind: "normal",
      instant: "2026-03-29T01:00:00.000Z",
    });
  });
});

describe("resolveLocal at a fall-back (ambiguous): two instants, the first earlier", () => {
  it("Berlin 2026-10-25 02:30 is 00:30Z (CEST) and 01:30Z (CET)", () => {
    expect(show(resolveLocal("Europe/Berlin", wall("2026-10-25T02:30")))).toEqual({
      kind: "ambiguous",
      first: "2026-10-25T00:30:00.000Z",
      second: "2026-10-25T01:30:00.000Z",
    });
  });

  it("Berlin 2026-10-25 02:00, the start of the overlap, is 00:00Z and 01:00Z", () => {
    expect(show(resolveLocal("Europe/Berlin", wall("2026-10-25T02:00")))).toEqual({
      kind: "ambiguous",
      first: "2026-10-25T00:00:00.000Z",
      second: "2026-10-25T01:00:00.000Z",
    });
  });

  it("New York 2026-11-01 01:30 is 05:30Z (EDT) and 06:30Z (EST)", () => {
    expect(show(resolveLocal("America/New_York", wall("2026-11-01T01:30")))).toEqual({
      kind: "ambiguous",
      first: "2026-11-01T05:30:00.000Z",
      second: "2026-11-01T06:30:00.000Z",
    });
  });

  it("Lord Howe 2026-04-05 01:45 repeats only 30 minutes apart: 14:45Z and 15:15Z the day before in UTC", () => {
    expect(show(resolveLocal("Australia/Lord_Howe", wall("2026-04-05T01:45")))).toEqual({
      kind: "ambiguous",
      first: "2026-04-04T14:45:00.000Z",
      second: "2026-04-04T15:15:00.000Z",
    });
  });
});

describe("resolveLocal in a spring-forward gap: shifted forward by the gap, transition at the first instant after it", () => {
  it("Berlin 2026-03-29 02:30 shifts an hour to 03:30 CEST (01:30Z); the gap ends at 01:00Z", () => {
    expect(show(resolveLocal("Europe/Berlin", wall("2026-03-29T02:30")))).toEqual({
      kind: "gap",
      shifted: "2026-03-29T01:30:00.000Z",
      transition: "2026-03-29T01:00:00.000Z",
    });
  });

  it("New York 2026-03-08 02:30 shifts to 03:30 EDT (07:30Z); the gap ends at 07:00Z", () => {
    expect(show(resolveLocal("America/New_York", wall("2026-03-08T02:30")))).toEqual({
      kind: "gap",
      shifted: "2026-03-08T07:30:00.000Z",
      transition: "2026-03-08T07:00:00.000Z",
    });
  });

  it("Lord Howe 2026-10-04 02:15 shifts by 30 minutes to 02:45 (15:45Z); the gap ends at 15:30Z", () => {
    expect(show(resolveLocal("Australia/Lord_Howe", wall("2026-10-04T02:15")))).toEqual({
      kind: "gap",
      shifted: "2026-10-03T15:45:00.000Z",
      transition: "2026-10-03T15:30:00.000Z",
    });
  });

  it("Havana 2026-03-08 00:30, in a gap at midnight, shifts to 01:30 CDT (05:30Z); the gap ends at 05:00Z", () => {
    expect(show(resolveLocal("America/Havana", wall("2026-03-08T00:30")))).toEqual({
      kind: "gap",
      shifted: "2026-03-08T05:30:00.000Z",
      transition: "2026-03-08T05:00:00.000Z",
    });
  });

  it("Havana midnight itself does not exist on 2026-03-08: both shifted and transition are 01:00 CDT (05:00Z)", () => {
    expect(show(resolveLocal("America/Havana", wall("2026-03-08T00:00")))).toEqual({
      kind: "gap",
      shifted: "2026-03-08T05:00:00.000Z",
      transition: "2026-03-08T05:00:00.000Z",
    });
  });

  it("Havana 01:00 on 2026-03-08, the first wall time after the gap, is normal (05:00Z)", () => {
    expect(show(resolveLocal("America/Havana", wall("2026-03-08T01:00")))).toEqual({
      kind: "normal",
      instant: "2026-03-08T05:00:00.000Z",
    });
  });
});

describe("instantOfWall: the one instant a wall time stands for", () => {
  it("is the instant of an ordinary wall time", () => {
    expect(iso(instantOfWall("Europe/Berlin", wall("2026-07-01T12:00")))).toBe("2026-07-01T10:00:00.000Z");
  });

  it("moves a wall time in a spring-forward gap forward by the gap (02:30 → 03:30 CEST)", () => {
    expect(iso(instantOfWall("Europe/Berlin", wall("2026-03-29T02:30")))).toBe("2026-03-29T01:30:00.000Z");
  });

  it("takes the first instant of a wall time that occurs twice, and the second when asked", () => {
    expect(iso(instantOfWall("Europe/Berlin", wall("2026-10-25T02:30")))).toBe("2026-10-25T00:30:00.000Z");
    expect(iso(instantOfWall("Europe/Berlin", wall("2026-10-25T02:30"), { overlap: "second" }))).toBe("2026-10-25T01:30:00.000Z");
  });
});
