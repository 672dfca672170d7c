/**
 * The pure parts of acting on a reminder (issue 25): where a snooze puts its copy (exact instants from a fixed
 * now, Tomorrow 9:00 across both DST changes of Berlin, New York and Lord Howe), the buttons of a job's message
 * and their data read back, quiet hours as /quiet reads them and whether an instant falls inside them (across
 * midnight), and a replied-to message quoted.
 */
import { describe, expect, it } from "vitest";
import { copyInput, snoozeInstant } from "../../src/jobs/snooze";
import { answeredButtons, messageButtons, parseButton } from "../../src/telegram/buttons";
import { quote, withQuote } from "../../src/telegram/replies";
import { inQuietHours, readQuiet, tomorrowAt } from "../../src/time";

const MIN = 60_000;

describe("where a snooze puts the copy", () => {
  const now = Date.parse("2027-05-12T12:30:17.250Z");

  it("10 min and 1 h are exactly that far from now, to the millisecond", () => {
    expect(snoozeInstant({ minutes: 10 }, "Europe/Berlin", now)).toBe(now + 10 * MIN);
    expect(snoozeInstant({ minutes: 60 }, "Europe/Berlin", now)).toBe(now + 60 * MIN);
  });

  it("Tomorrow 9:00 is 09:00 on the next calendar day in the chat's zone", () => {
    expect(new Date(snoozeInstant({ tomorrow: true }, "Europe/Berlin", now)).toISOString()).toBe("2027-05-13T07:00:00.000Z");
    expect(new Date(snoozeInstant({ tomorrow: true }, "America/New_York", now)).toISOString()).toBe("2027-05-13T13:00:00.000Z");
    // 23:30 in Berlin is already the 13th in Tokyo: each zone's own tomorrow.
    const late = Date.parse("2027-05-12T21:30:00Z");
    expect(new Date(tomorrowAt("Europe/Berlin", late, 9, 0)).toISOString()).toBe("2027-05-13T07:00:00.000Z");
    expect(new Date(tomorrowAt("Asia/Tokyo", late, 9, 0)).toISOString()).toBe("2027-05-14T00:00:00.000Z");
  });

  it("keeps 09:00 across a DST change: 23 hours on before spring-forward, 25 before fall-back", () => {
    const cases: [zone: string, now: string, tomorrowNine: string][] = [
      ["Europe/Berlin", "2027-03-27T19:00:00Z", "2027-03-28T07:00:00.000Z"],
      ["Europe/Berlin", "2027-10-30T19:00:00Z", "2027-10-31T08:00:00.000Z"],
      ["America/New_York", "2027-03-13T14:00:00Z", "2027-03-14T13:00:00.000Z"],
      ["America/New_York", "2027-11-06T13:00:00Z", "2027-11-07T14:00:00.000Z"],
      // Lord Howe moves by half an hour.
      ["Australia/Lord_Howe", "2027-04-03T10:00:00Z", "2027-04-03T22:30:00.000Z"],
      ["Australia/Lord_Howe", "2027-10-02T10:00:00Z", "2027-10-02T22:00:00.000Z"],
    ];
    for (const [zone, at, expected] of cases) expect(new Date(tomorrowAt(zone, Date.parse(at), 9, 0)).toISOString(), `${zone} ${at}`).toBe(expected);
    expect(tomorrowAt("Europe/Berlin", Date.parse("2027-03-27T19:00:00Z"), 9, 0) - Date.parse("2027-03-27T08:00:00Z")).toBe(23 * 60 * MIN);
  });

  it("moves a wall time in a gap forward by it, as an `at` does", () => {
    // 02:30 on 28 Mar 2027 does not exist in Berlin: 03:30 CEST.
    expect(new Date(tomorrowAt("Europe/Berlin", Date.parse("2027-03-27T12:00:00Z"), 2, 30)).toISOString()).toBe("2027-03-28T01:30:00.000Z");
  });

  it("copies the job's name, text, memory references and silence into a one-off at that instant", () => {
    const at = now + 10 * MIN;
    expect(copyInput({ name: "Stretch", text: "Time to stretch.", memoryRefs: ["m4x7pq"], silent: true }, at)).toEqual({
      name: "Stretch",
      kind: "prompt",
      text: "Time to stretch.",
      at: "2027-05-12T12:40:17.250Z",
      memoryRefs: ["m4x7pq"],
      silent: true,
    });
    expect(copyInput({ name: "Tea", text: "Tea.", memoryRefs: [], silent: false }, at)).toEqual({
      name: "Tea",
      kind: "prompt",
      text: "Tea.",
      at: "2027-05-12T12:40:17.250Z",
    });
  });
});

describe("the buttons of a job's message", () => {
  const runId = "k7m2q:1790499600000";

  it("are Done and the three snoozes after a one-off, Done, Snooze 1 h, Skip next and Pause after a recurring job", () => {
    expect(messageButtons(true, runId)).toEqual([
      [{ text: "Done", data: "d:k7m2q:1790499600000" }],
      [
        { text: "10 min", data: "s:10:k7m2q:1790499600000" },
        { text: "1 h", data: "s:60:k7m2q:1790499600000" },
        { text: "Tomorrow 9:00", data: "s:t:k7m2q:1790499600000" },
      ],
    ]);
    expect(messageButtons(false, runId)).toEqual([
      [
        { text: "Done", data: "d:k7m2q:1790499600000" },
        { text: "Snooze 1 h", data: "s:60:k7m2q:1790499600000" },
      ],
      [
        { text: "Skip next", data: "k:k7m2q:1790499600000" },
        { text: "Pause", data: "p:k7m2q:1790499600000" },
      ],
    ]);
  });

  it("are Done, Snooze 1 h and Pause after a run of a job only its hook runs: it has no next run to skip", () => {
    expect(messageButtons("hook", runId)).toEqual([
      [
        { text: "Done", data: "d:k7m2q:1790499600000" },
        { text: "Snooze 1 h", data: "s:60:k7m2q:1790499600000" },
      ],
      [{ text: "Pause", data: "p:k7m2q:1790499600000" }],
    ]);
  });

  it("carry data of at most 64 bytes, even for the longest run id", () => {
    const longest = "zzzzz:999999999999999";
    for (const b of [
      ...messageButtons(true, longest),
      ...messageButtons(false, longest),
      ...answeredButtons("⏰ Snoozed until 28 Mar 2028 09:00", longest),
    ].flat()) {
      expect(new TextEncoder().encode("data" in b ? b.data : "").length).toBeLessThanOrEqual(64);
    }
  });

  it("are read back as what they do, for the run they name; Pause of a run is not Pause of a job", () => {
    expect(parseButton("d:k7m2q:1790499600000")).toEqual({ kind: "message", action: { act: "done" }, runId, jobId: "k7m2q" });
    expect(parseButton("s:10:k7m2q:1790499600000")).toEqual({ kind: "message", action: { act: "snooze", snooze: { minutes: 10 } }, runId, jobId: "k7m2q" });
    expect(parseButton("s:60:k7m2q:1790499600000")).toEqual({ kind: "message", action: { act: "snooze", snooze: { minutes: 60 } }, runId, jobId: "k7m2q" });
    expect(parseButton("s:t:k7m2q:1790499600000")).toEqual({ kind: "message", action: { act: "snooze", snooze: { tomorrow: true } }, runId, jobId: "k7m2q" });
    expect(parseButton("k:k7m2q:1790499600000")).toEqual({ kind: "message", action: { act: "skip" }, runId, jobId: "k7m2q" });
    expect(parseButton("p:k7m2q:1790499600000")).toEqual({ kind: "message", action: { act: "pause" }, runId, jobId: "k7m2q" });
    expect(parseButton("a:k7m2q:1790499600000")).toEqual({ kind: "message", action: { act: "answered" }, runId, jobId: "k7m2q" });
    expect(parseButton("p:k7m2q")).toEqual({ kind: "job", action: "pause", id: "k7m2q" });
    for (const bad of ["s:30:k7m2q:1790499600000", "d:k7m2q", "d:k7m2q:", "d:K7M2Q:1790499600000", "d:k7m2q:1234567890123456", "x:k7m2q:1", "s:t:k7m2q:1x"]) {
      expect(parseButton(bad), bad).toBeNull();
    }
  });

  it("become one line once answered, which answers that it was", () => {
    expect(answeredButtons("✅ Done", runId)).toEqual([[{ text: "✅ Done", data: "a:k7m2q:1790499600000" }]]);
  });
});

describe("quiet hours", () => {
  it("are read as a person types them", () => {
    expect(readQuiet("22:00-07:00")).toEqual({ from: "22:00", to: "07:00" });
    expect(readQuiet("22-7")).toEqual({ from: "22:00", to: "07:00" });
    expect(readQuiet("22:30 – 6:15")).toEqual({ from: "22:30", to: "06:15" });
    expect(readQuiet("10pm to 7am")).toEqual({ from: "22:00", to: "07:00" });
    expect(readQuiet("12am-6am")).toEqual({ from: "00:00", to: "06:00" });
    expect(readQuiet("13:00 bis 15:00")).toEqual({ from: "13:00", to: "15:00" });
    for (const bad of ["", "22:00", "22:00-25:00", "22:60-07:00", "13pm-7am", "7-7", "night", "22:00-07:00-08:00"]) expect(readQuiet(bad), bad).toBeNull();
  });

  it("hold from `from` up to `to` on the zone's wall clock, across midnight when `to` comes first", () => {
    const night = { from: "22:00", to: "07:00" };
    const at = (iso: string) => Date.parse(iso);
    // Berlin is UTC+2 in May.
    expect(inQuietHours(night, "Europe/Berlin", at("2027-05-12T19:59:00Z"))).toBe(false);
    expect(inQuietHours(night, "Europe/Berlin", at("2027-05-12T20:00:00Z"))).toBe(true);
    expect(inQuietHours(night, "Europe/Berlin", at("2027-05-12T23:30:00Z"))).toBe(true);
    expect(inQuietHours(night, "Europe/Berlin", at("2027-05-13T04:59:00Z"))).toBe(true);
    expect(inQuietHours(night, "Europe/Berlin", at("2027-05-13T05:00:00Z"))).toBe(false);
    expect(inQuietHours(night, "UTC", at("2027-05-12T21:00:00Z"))).toBe(false);
    const lunch = { from: "12:00", to: "13:30" };
    expect(inQuietHours(lunch, "Asia/Tokyo", at("2027-05-12T03:29:00Z"))).toBe(true);
    expect(inQuietHours(lunch, "Asia/Tokyo", at("2027-05-12T04:30:00Z"))).toBe(false);
  });
});

describe("a replied-to message", () => {
  it("is quoted line by line before the reply's own text", () => {
    expect(quote("Two offers:\n1. Berlin\r\n\n2. Paris\n")).toBe("> Two offers:\n> 1. Berlin\n>\n> 2. Paris");
    expect(withQuote("Buy milk", "and eggs?")).toBe("> Buy milk\n\nand eggs?");
    expect(withQuote(null, "and eggs?")).toBe("and eggs?");
    expect(withQuote("  ", "and eggs?")).toBe("and eggs?");
  });
});
