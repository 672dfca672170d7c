/**
 * Recurrence rules (docs/time.md): what `{ rrule, start }` accepts and the sentences for what it refuses, the
 * DST rules on the transition days of Europe/Berlin, America/New_York, Australia/Lord_Howe (half an hour),
 * America/Santiago and Asia/Amman before 2022 (a local midnight that does not exist) with exact instants, the
 * description in words, COUNT and UNTIL moved into runsLeft and until, and the preview that stops where the
 * job would end. dateutil itself is the reference in time-rule.reference.test.ts.
 */
import { describe, expect, it } from "vitest";
import { nextRuleOccurrence, parseRuleSchedule, preview, type RuleSchedule, ruleEnds } from "../../src/time";

function schedule(rrule: string, start: string, zone = "UTC"): RuleSchedule {
  const parsed = parseRuleSchedule({ rrule, start }, zone);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.value;
}

/** The next `count` occurrences strictly after `from`, each as RFC 3339 with `:gap`/`:first`/`:second` for a note. */
function runs(rrule: string, start: string, zone: string, from: string, count: number): string[] {
  const s = schedule(rrule, start, zone);
  const out: string[] = [];
  let after = Date.parse(from);
  for (let i = 0; i < count; i++) {
    const o = nextRuleOccurrence(s, zone, after);
    if (!o) break;
    out.push(new Date(o.at).toISOString() + (o.note ? `:${o.note.kind}` : ""));
    after = o.at;
  }
  return out;
}

const refused = (rrule: string, start = "2026-12-08", zone = "UTC") => parseRuleSchedule({ rrule, start }, zone);
const PARTS = "use FREQ, INTERVAL, BYMINUTE, BYHOUR, BYDAY, BYMONTHDAY, BYYEARDAY, BYWEEKNO, BYMONTH, BYSETPOS, WKST, COUNT or UNTIL";

describe("parseRuleSchedule reads an RRULE value and its start", () => {
  it("takes the RRULE: prefix and parts in either case, and a date alone as 09:00", () => {
    const s = schedule("RRULE:freq=weekly;interval=2;byday=tu", "2026-12-08");
    expect([s.rule.freq, s.rule.interval, s.rule.byDay, new Date(s.start).toISOString()]).toEqual([
      "WEEKLY",
      2,
      [{ weekday: 1, n: 0 }],
      "2026-12-08T09:00:00.000Z",
    ]);
  });

  it.each([
    ["", `"rrule" is empty; give an RFC 5545 rule such as "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU".`],
    ["FREQ=SECONDLY", `"rrule" "FREQ=SECONDLY" has FREQ=SECONDLY, which is not supported: a job runs at most once a minute; use FREQ=MINUTELY.`],
    ["FREQ=DAILY;BYSECOND=0", `"rrule" "FREQ=DAILY;BYSECOND=0" has BYSECOND, which is not supported: a job runs on whole minutes; leave it out.`],
    ["FREQ=DAILY;BYEASTER=1", `"rrule" "FREQ=DAILY;BYEASTER=1" has BYEASTER, which is not supported; ${PARTS}.`],
    ["FREQ=DAILY;X-NAME=1", `"rrule" "FREQ=DAILY;X-NAME=1" has X-NAME, which is not supported; ${PARTS}.`],
    ["INTERVAL=2", `"rrule" "INTERVAL=2" has no FREQ; start it with FREQ=MINUTELY, HOURLY, DAILY, WEEKLY, MONTHLY or YEARLY.`],
    ["FREQ=FORTNIGHTLY", `"rrule" "FREQ=FORTNIGHTLY" has FREQ=FORTNIGHTLY; use MINUTELY, HOURLY, DAILY, WEEKLY, MONTHLY or YEARLY.`],
    ["FREQ=DAILY;INTERVAL=0", `"rrule" "FREQ=DAILY;INTERVAL=0" has INTERVAL=0; use a whole number from 1 to 1830.`],
    // INTERVAL is bounded by the 5 years a rule must run within, at each FREQ, not by a count.
    ["FREQ=YEARLY;INTERVAL=6", `"rrule" "FREQ=YEARLY;INTERVAL=6" has INTERVAL=6, more than 5 years at FREQ=YEARLY; use at most 5, or a larger FREQ.`],
    [
      "FREQ=MINUTELY;INTERVAL=2635201",
      `"rrule" "FREQ=MINUTELY;INTERVAL=2635201" has INTERVAL=2635201, more than 5 years at FREQ=MINUTELY; use at most 2635200, or a larger FREQ.`,
    ],
    ["FREQ=DAILY;FREQ=WEEKLY", `"rrule" "FREQ=DAILY;FREQ=WEEKLY" gives FREQ twice; give each part once.`],
    ["FREQ", `"rrule" "FREQ" has "FREQ", which is not a NAME=VALUE part; write parts such as "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU".`],
    [
      "FREQ=WEEKLY;BYDAY=1MO",
      `"rrule" "FREQ=WEEKLY;BYDAY=1MO" has BYDAY=1MO: a position such as 1MO needs FREQ=MONTHLY or YEARLY; use plain weekdays such as MO.`,
    ],
    ["FREQ=MONTHLY;BYDAY=6MO", `"rrule" "FREQ=MONTHLY;BYDAY=6MO" has BYDAY=6MO; a position must be from 1 to 5 or -5 to -1 in a MONTHLY rule.`],
    [
      "FREQ=MONTHLY;BYDAY=MO,-1FR",
      `"rrule" "FREQ=MONTHLY;BYDAY=MO,-1FR" has BYDAY=MO,-1FR, which mixes weekdays with and without a position; write two jobs, or positions for every day.`,
    ],
    ["FREQ=DAILY;BYDAY=XX", `"rrule" "FREQ=DAILY;BYDAY=XX" has BYDAY=XX; use weekdays MO–SU, with a position in MONTHLY or YEARLY rules such as 1MO or -1FR.`],
    ["FREQ=DAILY;BYHOUR=24", `"rrule" "FREQ=DAILY;BYHOUR=24" has BYHOUR=24; each value must be from 0 to 23.`],
    ["FREQ=MONTHLY;BYMONTHDAY=0", `"rrule" "FREQ=MONTHLY;BYMONTHDAY=0" has BYMONTHDAY=0; each value must be from 1 to 31 or -31 to -1.`],
    ["FREQ=DAILY;WKST=XX", `"rrule" "FREQ=DAILY;WKST=XX" has WKST=XX; use MO, TU, WE, TH, FR, SA or SU.`],
    ["FREQ=DAILY;COUNT=1001", `"rrule" "FREQ=DAILY;COUNT=1001" has COUNT=1001; use a whole number from 1 to 1000 (a job's runs left).`],
    [
      "FREQ=DAILY;UNTIL=2026-12-31",
      `"rrule" "FREQ=DAILY;UNTIL=2026-12-31" has UNTIL=2026-12-31; use a date such as 20261231, a local time such as 20261231T180000, or UTC such as 20261231T170000Z.`,
    ],
    [
      "DTSTART:20261208T100000",
      `"rrule" "DTSTART:20261208T100000" must be one RRULE value; give its start in "start", not as DTSTART, e.g. "rrule": "FREQ=DAILY", "start": "2026-12-08T09:00".`,
    ],
  ])("refuses %j with a sentence naming the part", (rrule, error) => {
    expect(refused(rrule)).toEqual({ ok: false, error });
  });

  const FORM = `use a local date and time such as 2026-12-08T10:00 (read in Europe/Berlin) or a date such as 2026-12-08 (09:00)`;
  it.each([
    ["2026-12-08T10:00:00Z", `"start" is a local time in Europe/Berlin, without an offset; ${FORM}; got "2026-12-08T10:00:00Z".`],
    ["tomorrow", `"start" must be a local date and time; ${FORM}; got "tomorrow".`],
    ["2026-02-30", `"start" is not a real date and time: "2026-02-30"; ${FORM}.`],
    ["2026-12-08 24:00", `"start" is not a real date and time: "2026-12-08 24:00"; ${FORM}.`],
  ])("refuses start %j", (start, error) => {
    expect(refused("FREQ=DAILY", start, "Europe/Berlin")).toEqual({ ok: false, error });
  });
});

describe("nextRuleOccurrence expands in local time as dateutil does", () => {
  it("counts start as an instance only when the rule matches it (a Tuesday rule from a Wednesday)", () => {
    expect(runs("FREQ=WEEKLY;BYDAY=TU", "2026-12-09T10:00", "UTC", "2026-12-01T00:00:00Z", 2)).toEqual([
      "2026-12-15T10:00:00.000Z",
      "2026-12-22T10:00:00.000Z",
    ]);
  });

  it("keeps the weeks of INTERVAL=2 from start, however far ahead it is asked", () => {
    expect(runs("FREQ=WEEKLY;INTERVAL=2;BYDAY=TU", "2026-12-08T10:00", "UTC", "2030-06-01T00:00:00Z", 2)).toEqual([
      "2030-06-04T10:00:00.000Z",
      "2030-06-18T10:00:00.000Z",
    ]);
  });

  it("finds the last working day of each month", () => {
    expect(runs("FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1", "2026-01-01", "UTC", "2026-01-01T00:00:00Z", 3)).toEqual([
      "2026-01-30T09:00:00.000Z",
      "2026-02-27T09:00:00.000Z",
      "2026-03-31T09:00:00.000Z",
    ]);
  });

  it("runs every 90 minutes across midnight, on the grid from start", () => {
    expect(runs("FREQ=MINUTELY;INTERVAL=90", "2026-12-08T21:00", "UTC", "2026-12-08T21:00:00Z", 3)).toEqual([
      "2026-12-08T22:30:00.000Z",
      "2026-12-09T00:00:00.000Z",
      "2026-12-09T01:30:00.000Z",
    ]);
  });

  it("returns null when no run falls within 5 years (29 February every 4 years, from a year that is not a leap year)", () => {
    expect(nextRuleOccurrence(schedule("FREQ=YEARLY;INTERVAL=4;BYMONTH=2;BYMONTHDAY=29", "2027-02-01"), "UTC", Date.parse("2026-12-09T00:00:00Z"))).toBeNull();
  });

  it("takes an INTERVAL past 1000 that runs within 5 years (dateutil's FREQ=MINUTELY;INTERVAL=1501)", () => {
    expect(runs("FREQ=MINUTELY;INTERVAL=1501", "1997-09-02T09:00", "UTC", "1997-09-02T09:00:00Z", 3)).toEqual([
      "1997-09-03T10:01:00.000Z",
      "1997-09-04T11:02:00.000Z",
      "1997-09-05T12:03:00.000Z",
    ]);
  });
});

describe("nextRuleOccurrence: DST by cron's rules (a gap fires at its end; a second pass only for HOURLY and MINUTELY)", () => {
  it.each([
    // Berlin springs forward at 02:00 on 29 March 2026 (01:00Z).
    [
      "Europe/Berlin",
      "FREQ=DAILY",
      "2026-03-27T02:30",
      "2026-03-26T00:00:00Z",
      ["2026-03-27T01:30:00.000Z", "2026-03-28T01:30:00.000Z", "2026-03-29T01:00:00.000Z:gap", "2026-03-30T00:30:00.000Z"],
    ],
    [
      "Europe/Berlin",
      "FREQ=HOURLY",
      "2026-03-29T00:30",
      "2026-03-28T00:00:00Z",
      ["2026-03-28T23:30:00.000Z", "2026-03-29T00:30:00.000Z", "2026-03-29T01:00:00.000Z:gap", "2026-03-29T01:30:00.000Z"],
    ],
    // 02:00, 02:20, 02:40 do not exist and 03:00 is where the gap ends: one run for the four.
    [
      "Europe/Berlin",
      "FREQ=MINUTELY;INTERVAL=20",
      "2026-03-29T01:40",
      "2026-03-28T00:00:00Z",
      ["2026-03-29T00:40:00.000Z", "2026-03-29T01:00:00.000Z:gap", "2026-03-29T01:20:00.000Z"],
    ],
    // Berlin falls back at 03:00 on 25 October 2026 (01:00Z): 02:00–02:59 twice.
    [
      "Europe/Berlin",
      "FREQ=DAILY",
      "2026-10-24T02:30",
      "2026-10-23T00:00:00Z",
      ["2026-10-24T00:30:00.000Z", "2026-10-25T00:30:00.000Z:first", "2026-10-26T01:30:00.000Z"],
    ],
    [
      "Europe/Berlin",
      "FREQ=HOURLY",
      "2026-10-25T01:00",
      "2026-10-24T00:00:00Z",
      ["2026-10-24T23:00:00.000Z", "2026-10-25T00:00:00.000Z", "2026-10-25T01:00:00.000Z:second", "2026-10-25T02:00:00.000Z"],
    ],
    // New York: 02:00–02:59 missing on 8 March 2026, 01:00–01:59 twice on 1 November.
    [
      "America/New_York",
      "FREQ=WEEKLY;BYDAY=SU;BYHOUR=2;BYMINUTE=30",
      "2026-03-01T02:30",
      "2026-02-28T00:00:00Z",
      ["2026-03-01T07:30:00.000Z", "2026-03-08T07:00:00.000Z:gap", "2026-03-15T06:30:00.000Z"],
    ],
    [
      "America/New_York",
      "FREQ=MONTHLY;BYDAY=1SU;BYHOUR=1;BYMINUTE=30",
      "2026-10-01",
      "2026-09-28T00:00:00Z",
      ["2026-10-04T05:30:00.000Z", "2026-11-01T05:30:00.000Z:first", "2026-12-06T06:30:00.000Z"],
    ],
    // Lord Howe moves by half an hour: 02:00–02:29 missing on 4 October 2026, 01:30–01:59 twice on 5 April.
    [
      "Australia/Lord_Howe",
      "FREQ=DAILY",
      "2026-10-03T02:15",
      "2026-10-01T00:00:00Z",
      ["2026-10-02T15:45:00.000Z", "2026-10-03T15:30:00.000Z:gap", "2026-10-04T15:15:00.000Z"],
    ],
    [
      "Australia/Lord_Howe",
      "FREQ=MINUTELY;INTERVAL=15",
      "2026-04-05T01:00",
      "2026-04-04T00:00:00Z",
      [
        "2026-04-04T14:00:00.000Z",
        "2026-04-04T14:15:00.000Z",
        "2026-04-04T14:30:00.000Z",
        "2026-04-04T14:45:00.000Z",
        "2026-04-04T15:00:00.000Z:second",
        "2026-04-04T15:15:00.000Z:second",
        "2026-04-04T15:30:00.000Z",
      ],
    ],
    // Santiago: midnight is missing on 6 September 2026; 23:00–23:59 on 4 April happens twice.
    [
      "America/Santiago",
      "FREQ=DAILY",
      "2026-09-04T00:00",
      "2026-09-01T00:00:00Z",
      ["2026-09-04T04:00:00.000Z", "2026-09-05T04:00:00.000Z", "2026-09-06T04:00:00.000Z:gap", "2026-09-07T03:00:00.000Z"],
    ],
    [
      "America/Santiago",
      "FREQ=DAILY;BYHOUR=23;BYMINUTE=30",
      "2026-04-03",
      "2026-04-01T00:00:00Z",
      ["2026-04-04T02:30:00.000Z", "2026-04-05T02:30:00.000Z:first", "2026-04-06T03:30:00.000Z"],
    ],
    // Amman before 2022: midnight of 26 March 2021 did not exist; 00:00–00:59 on 29 October 2021 happened twice.
    // (start is 26 January at 09:00, after that day's midnight: the first run is February's.)
    [
      "Asia/Amman",
      "FREQ=MONTHLY;BYMONTHDAY=26;BYHOUR=0;BYMINUTE=0",
      "2021-01-26",
      "2021-01-01T00:00:00Z",
      ["2021-02-25T22:00:00.000Z", "2021-03-25T22:00:00.000Z:gap", "2021-04-25T21:00:00.000Z"],
    ],
    [
      "Asia/Amman",
      "FREQ=HOURLY;INTERVAL=2",
      "2021-10-28T22:00",
      "2021-10-28T00:00:00Z",
      ["2021-10-28T19:00:00.000Z", "2021-10-28T21:00:00.000Z", "2021-10-28T22:00:00.000Z:second", "2021-10-29T00:00:00.000Z"],
    ],
  ])("%s %s from %s", (zone, rrule, start, from, expected) => {
    expect(runs(rrule, start, zone, from, expected.length)).toEqual(expected);
  });
});

describe("ruleEnds moves COUNT and UNTIL into runsLeft and until, as a job is written", () => {
  const now = Date.parse("2026-12-10T12:00:00Z"); // 13:00 in Berlin; daily runs at 09:00 on 8, 9 and 10 Dec are past
  const ends = (rrule: string) => ruleEnds(schedule(rrule, "2026-12-08", "Europe/Berlin"), "Europe/Berlin", now);

  it.each([
    ["FREQ=DAILY;COUNT=5", { rrule: "FREQ=DAILY", start: "2026-12-08T09:00", until: null, runsLeft: 2 }],
    ["FREQ=DAILY;UNTIL=20261231", { rrule: "FREQ=DAILY", start: "2026-12-08T09:00", until: "2026-12-31T23:59", runsLeft: null }],
    ["FREQ=DAILY;UNTIL=20261231T170000Z", { rrule: "FREQ=DAILY", start: "2026-12-08T09:00", until: "2026-12-31T18:00", runsLeft: null }],
    ["FREQ=DAILY;COUNT=10;UNTIL=20261215T090000", { rrule: "FREQ=DAILY", start: "2026-12-08T09:00", until: "2026-12-15T09:00", runsLeft: 7 }],
    ["FREQ=WEEKLY;COUNT=3;BYDAY=MO", { rrule: "FREQ=WEEKLY;BYDAY=MO", start: "2026-12-08T09:00", until: null, runsLeft: 3 }],
  ])("%s → %j", (rrule, value) => {
    expect(ends(rrule)).toEqual({ ok: true, value });
  });

  it.each([
    [
      "FREQ=DAILY;COUNT=3",
      `The rule "FREQ=DAILY;COUNT=3" has no runs left: all 3 of its COUNT ran by 2026-12-10 09:00 in Europe/Berlin; give a later start or a larger COUNT.`,
    ],
    [
      "FREQ=DAILY;UNTIL=20261201",
      `The rule "FREQ=DAILY;UNTIL=20261201" ends before now: its UNTIL is 2026-12-01 23:59 in Europe/Berlin; give a later UNTIL or leave it out.`,
    ],
    [
      "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30",
      `The rule "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30" from 2026-12-08 09:00 never fires within 5 years; check its FREQ, INTERVAL and BY parts.`,
    ],
  ])("refuses %s, which has nothing left to run", (rrule, error) => {
    expect(ends(rrule)).toEqual({ ok: false, error });
  });
});

describe("preview of a rule, and of cron, stops where the job would end", () => {
  const from = Date.parse("2026-12-10T12:00:00Z");

  it("previews a rule with its own COUNT less the runs before now", async () => {
    expect(await preview({ rrule: "FREQ=DAILY;COUNT=5", start: "2026-12-08" }, "Europe/Berlin", from, 10)).toMatchObject({
      ok: true,
      value: { occurrences: ["2026-12-11T08:00:00.000Z", "2026-12-12T08:00:00.000Z"], notes: [] },
    });
  });

  it("stops at until and at runsLeft, whichever comes first", async () => {
    expect(await preview({ rrule: "FREQ=DAILY", start: "2026-12-08" }, "Europe/Berlin", from, 10, { until: "2026-12-13T09:00", runsLeft: 5 })).toMatchObject({
      ok: true,
      value: {
        occurrences: ["2026-12-11T08:00:00.000Z", "2026-12-12T08:00:00.000Z", "2026-12-13T08:00:00.000Z"],
        notes: [],
        read: { ends: { until: "2026-12-13T09:00", runsLeft: 5 } },
      },
    });
    expect(await preview({ cron: "0 9 * * *" }, "Europe/Berlin", from, 10, { runsLeft: 2 })).toMatchObject({
      ok: true,
      value: { occurrences: ["2026-12-11T08:00:00.000Z", "2026-12-12T08:00:00.000Z"] },
    });
  });

  it("notes a rule's run a DST gap moved", async () => {
    expect(await preview({ rrule: "FREQ=DAILY", start: "2026-03-28T02:30" }, "Europe/Berlin", Date.parse("2026-03-28T12:00:00Z"), 2)).toMatchObject({
      ok: true,
      value: {
        occurrences: ["2026-03-29T01:00:00.000Z", "2026-03-30T00:30:00.000Z"],
        notes: ["2026-03-29 02:30 does not exist in Europe/Berlin; runs at 03:00"],
      },
    });
  });

  it.each([
    [{ until: "2026-12-01" }, `The schedule ends before its first run: the next is 2026-12-11 09:00 in Europe/Berlin, after "until" (2026-12-01 23:59).`],
    [
      { until: "soon" },
      `"until" must be an ISO 8601 date or date and time such as 2026-12-01T09:00 (read in Europe/Berlin) or 2026-12-01T09:00:00Z; got "soon".`,
    ],
    [{ runsLeft: 0 }, `"runsLeft" must be a whole number from 1 to 1000; got 0.`],
  ])("refuses ends %j with a sentence", async (ends, error) => {
    expect(await preview({ cron: "0 9 * * *" }, "Europe/Berlin", from, 10, ends)).toEqual({ ok: false, error });
  });
});
