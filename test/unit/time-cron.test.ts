/**
 * Cron (docs/time.md): what parseCron accepts and how it expands it, the interval/fixed classification, the
 * rejections with their sentences, and nextOccurrence on fixed cases: the Vixie day-of-month/day-of-week
 * rule, leap days, the 5-year bound, strictly-after, and the DST rules in the chat's zone.
 */
import { describe, expect, it } from "vitest";
import { type CronSchedule, nextOccurrence, parseCron, preview } from "../../src/time";

const iso = (ms: number): string => new Date(ms).toISOString();

function cron(text: string): CronSchedule {
  const r = parseCron(text);
  if (!r.ok) throw new Error(`expected "${text}" to parse: ${r.error}`);
  return r.value;
}

/** The indices set in a boolean table (days of month 1–31, months 1–12, weekdays 0–6). */
const on = (table: readonly boolean[]): number[] => table.flatMap((v, i) => (v ? [i] : []));
const range = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, i) => from + i);

/** The next `count` occurrences strictly after `from`, each as RFC 3339 with `:gap`/`:first`/`:second` for a note. */
function next(text: string, zone: string, from: string, count = 1): string[] {
  const schedule = cron(text);
  const out: string[] = [];
  let after = Date.parse(from);
  for (let i = 0; i < count; i++) {
    const o = nextOccurrence(schedule, zone, after);
    if (!o) {
      out.push("none");
      break;
    }
    out.push(iso(o.at) + (o.note ? `:${o.note.kind}` : ""));
    after = o.at;
  }
  return out;
}

const HINT = `use 5 fields (minute hour day-of-month month day-of-week) such as "0 8 * * 1-5", or a macro such as "@daily"`;
const MINUTE = `use 0–59, e.g. "0", "*/15" or "0,30"`;
const HOUR = `use 0–23, e.g. "8", "9-17" or "*/2"`;
const DOM = `use 1–31, e.g. "1", "1,15", "*/2", "L" (the last day) or "15W" (the weekday nearest the 15th)`;
const MONTH = `use 1–12 or JAN–DEC, e.g. "1", "JAN-MAR" or "*/3"`;
const DOW = `use 0–7 (0 and 7 are Sunday) or SUN–SAT, e.g. "1-5", "MON,WED,FRI", "5L" (the last Friday) or "MON#1" (the first Monday)`;

describe("parseCron expands the five fields", () => {
  it("expands ranges, steps and lists in every field", () => {
    const c = cron("*/15 9-17/2 1-10,20 */3 MON-FRI");
    expect([c.minutes, c.hours, on(c.daysOfMonth), on(c.months), on(c.daysOfWeek)]).toEqual([
      [0, 15, 30, 45],
      [9, 11, 13, 15, 17],
      [...range(1, 10), 20],
      [1, 4, 7, 10],
      [1, 2, 3, 4, 5],
    ]);
  });

  it("reads month and weekday names in any case", () => {
    const c = cron("0 0 1 jan,Feb,MAR sun-Tue");
    expect([on(c.months), on(c.daysOfWeek)]).toEqual([
      [1, 2, 3],
      [0, 1, 2],
    ]);
  });

  it("reads JAN–DEC and SUN–SAT as the full ranges", () => {
    const c = cron("0 0 * JAN-DEC SUN-SAT");
    expect([on(c.months), on(c.daysOfWeek)]).toEqual([range(1, 12), range(0, 6)]);
  });

  it.each(["0", "7", "SUN"])("reads day-of-week %s as Sunday", (dow) => {
    expect(on(cron(`0 0 * * ${dow}`).daysOfWeek)).toEqual([0]);
  });

  it("folds 7 into Sunday inside a range (5-7 = Fri, Sat, Sun)", () => {
    expect(on(cron("0 0 * * 5-7").daysOfWeek)).toEqual([0, 5, 6]);
  });

  it("keeps the fields as written, trimmed and split on any run of spaces", () => {
    expect(cron("  0  8 * *   1-5 ").fields).toEqual(["0", "8", "*", "*", "1-5"]);
  });
});

describe("parseCron reads Cronos's extensions", () => {
  it.each([
    ["0 22-2 * * *", "hours", [0, 1, 2, 22, 23]],
    ["56-4/4 * * * *", "minutes", [0, 4, 56]],
    ["0 23-3/2 * * *", "hours", [1, 3, 23]],
    ["0 0 20-5/5 * *", "days of month", [4, 20, 25, 30]],
    ["0 0 * NOV-FEB *", "months", [1, 2, 11, 12]],
    ["0 0 * 9-8/3 *", "months", [3, 6, 9, 12]],
    ["0 0 * * FRI-MON", "weekdays", [0, 1, 5, 6]],
    ["0 0 * * sat-tue/2", "weekdays", [1, 6]],
    ["0 0 * * 6-0", "weekdays", [0, 6]],
    ["0 0 * * 7-1", "weekdays", [0, 1]],
    ["0 0 * * MON-SUN", "weekdays", [0, 1, 2, 3, 4, 5, 6]],
    ["59-58 * * * *", "minutes", range(0, 59)],
  ])("%s wraps: its %s are %j (a step continues across the wrap)", (text, field, values) => {
    const c = cron(text);
    const sets: Record<string, number[]> = {
      hours: [...c.hours],
      minutes: [...c.minutes],
      "days of month": on(c.daysOfMonth),
      months: on(c.months),
      weekdays: on(c.daysOfWeek),
    };
    expect(sets[field]).toEqual(values);
  });

  it.each([
    ["0 0 L * *", { kind: "last", offset: 0 }],
    ["0 0 l-3 * *", { kind: "last", offset: 3 }],
    ["0 0 15W * *", { kind: "nearestWeekday", day: 15 }],
    ["0 0 lw * *", { kind: "lastNearestWeekday", offset: 0 }],
    ["0 0 L-2W * *", { kind: "lastNearestWeekday", offset: 2 }],
  ])("%s is a day-of-month rule %j, restricted for the OR rule", (text, rule) => {
    const c = cron(text);
    expect([c.monthDay, c.domStar]).toEqual([rule, false]);
  });

  it.each([
    ["0 17 * * 5L", { kind: "last", weekday: 5 }],
    ["0 17 * * fril", { kind: "last", weekday: 5 }],
    ["0 17 * * 7L", { kind: "last", weekday: 0 }],
    ["0 9 * * MON#1", { kind: "nth", weekday: 1, n: 1 }],
    ["0 9 * * 0#5", { kind: "nth", weekday: 0, n: 5 }],
  ])("%s is a day-of-week rule %j", (text, rule) => {
    const c = cron(text);
    expect([c.weekday, c.dowStar]).toEqual([rule, false]);
  });

  it("reads ? as * in any field: unrestricted for the OR rule, an interval in minute and hour", () => {
    const c = cron("? ? ? * ?");
    expect([c.minutes.length, c.hours.length, on(c.daysOfMonth).length, c.domStar, c.dowStar, c.interval]).toEqual([60, 24, 31, true, true, true]);
  });
});

describe("parseCron expands every macro to its fields", () => {
  it.each([
    ["@yearly", ["0", "0", "1", "1", "*"]],
    ["@annually", ["0", "0", "1", "1", "*"]],
    ["@monthly", ["0", "0", "1", "*", "*"]],
    ["@weekly", ["0", "0", "*", "*", "0"]],
    ["@daily", ["0", "0", "*", "*", "*"]],
    ["@midnight", ["0", "0", "*", "*", "*"]],
    ["@hourly", ["0", "*", "*", "*", "*"]],
    ["@DAILY", ["0", "0", "*", "*", "*"]],
    ["@every_minute", ["*", "*", "*", "*", "*"]],
  ])("%s → %j", (macro, fields) => {
    expect(cron(macro).fields).toEqual(fields);
  });
});

describe("parseCron classifies interval and fixed expressions (the fall-back rule)", () => {
  it.each(["*/30 * * * *", "0 * * * *", "*/15 1 * * *", "0 1-3 * * *", "0 */2 * * *", "@hourly"])(
    "%s is an interval expression (minute or hour has *, - or /)",
    (text) => {
      expect(cron(text).interval).toBe(true);
    },
  );

  it.each(["30 1 * * *", "0,30 1 * * *", "0 0 * * *", "@daily", "0 9 * * 1-5"])("%s is a fixed expression (the day fields do not count)", (text) => {
    expect(cron(text).interval).toBe(false);
  });
});

describe("parseCron marks unrestricted day fields for the OR rule (a field that starts with *)", () => {
  it.each([
    ["0 12 13 * 5", false, false],
    ["0 0 */2 * 1", true, false],
    ["0 0 1 * *", false, true],
    ["0 0 * * */2", true, true],
    ["@weekly", true, false],
  ])("%s: domStar %s, dowStar %s", (text, domStar, dowStar) => {
    const c = cron(text);
    expect([c.domStar, c.dowStar]).toEqual([domStar, dowStar]);
  });
});

describe("parseCron rejects with a sentence naming the problem and an accepted form", () => {
  it.each([
    ["0 0 * * * *", `Invalid cron expression "0 0 * * * *": it has 6 fields (seconds are not supported); ${HINT}.`],
    ["0 0 * *", `Invalid cron expression "0 0 * *": it has 4 fields; ${HINT}.`],
    ["hello", `Invalid cron expression "hello": it has 1 field; ${HINT}.`],
    ["", `"cron" is empty; ${HINT}.`],
    ["   ", `"cron" is empty; ${HINT}.`],
  ])("rejects %j (field count)", (text, error) => {
    expect(parseCron(text)).toEqual({ ok: false, error });
  });

  it.each([
    ["0 0 L,1 * *", `the day-of-month field "L,1" has "L" in a list; "L" and "W" forms stand alone in the field; ${DOM}`],
    ["0 0 15W,1 * *", `the day-of-month field "15W,1" has "15W" in a list; "L" and "W" forms stand alone in the field; ${DOM}`],
    ["0 0 L-31 * *", `the day-of-month field "L-31" has "L-31", outside L-0 to L-30; ${DOM}`],
    ["0 0 32W * *", `the day-of-month field "32W" has "32W", outside 1W to 31W; ${DOM}`],
    ["0 0 5L * *", `the day-of-month field "5L" uses "5L", which belongs in the day-of-week field; ${DOM}`],
    ["0 0 * * 5#6", `the day-of-week field "5#6" has "5#6"; "#" takes a week from 1 to 5 after a weekday, e.g. "MON#1"; ${DOW}`],
    ["0 0 * * 5L,1", `the day-of-week field "5L,1" has "5L" in a list; "L" and "#" forms stand alone in the field; ${DOW}`],
    ["0 0 * * 8L", `the day-of-week field "8L" has "8L", which is not a weekday followed by L; ${DOW}`],
    ["0 0 * * L", `the day-of-week field "L" uses "L" alone; write the last of a weekday, e.g. "5L" (the last Friday); ${DOW}`],
    ["0 0 * * 15W", `the day-of-week field "15W" uses "15W", which belongs in the day-of-month field; ${DOW}`],
    ["0 L * * *", `the hour field "L" uses "L"; "L", "W" and "#" belong in the day-of-month and day-of-week fields; ${HOUR}`],
    ["H 0 * * *", `the minute field "H" uses "H" (hashed times), which is not supported; ${MINUTE}`],
    ["0 H(0-7) * * *", `the hour field "H(0-7)" uses "H" (hashed times), which is not supported; ${HOUR}`],
  ])("rejects %s (an extension out of its place, or one Cuckoo does not take)", (text, rest) => {
    expect(parseCron(text)).toEqual({ ok: false, error: `Invalid cron expression "${text}": ${rest}.` });
  });

  it("rejects @every_second", () => {
    expect(parseCron("@every_second")).toEqual({
      ok: false,
      error: `"@every_second" is not supported: a job runs at most once a minute; use "@every_minute" or "* * * * *".`,
    });
  });

  it("rejects @reboot", () => {
    expect(parseCron("@reboot")).toEqual({
      ok: false,
      error: `"@reboot" is not supported: a chat has no start-up to run at; use a time such as "@daily" or "0 9 * * *".`,
    });
  });

  it("rejects an unknown macro", () => {
    expect(parseCron("@fortnightly")).toEqual({
      ok: false,
      error: `Unknown cron macro "@fortnightly"; use one of @yearly, @annually, @monthly, @weekly, @daily, @midnight, @hourly or @every_minute.`,
    });
  });

  it.each([
    ["60 * * * *", `the minute field "60" has 60, outside 0–59; ${MINUTE}`],
    ["0 24 * * *", `the hour field "24" has 24, outside 0–23; ${HOUR}`],
    ["0 0 32 * *", `the day-of-month field "32" has 32, outside 1–31; ${DOM}`],
    ["0 0 0 * *", `the day-of-month field "0" has 0, outside 1–31; ${DOM}`],
    ["0 0 * 13 *", `the month field "13" has 13, outside 1–12; ${MONTH}`],
    ["0 0 * * 8", `the day-of-week field "8" has 8, outside 0–7; ${DOW}`],
    ["0 0 * FOO *", `the month field "FOO" has "FOO", which is not a month value; ${MONTH}`],
    ["*/0 * * * *", `the minute field "*/0" has a step of 0, outside 1–60; ${MINUTE}`],
    ["0 1-5/0 * * *", `the hour field "1-5/0" has a step of 0, outside 1–24; ${HOUR}`],
    ["every day at 9 am", `the minute field "every" has "every", which is not a minute value; ${MINUTE}`],
  ])("rejects %j (a bad value)", (text, rest) => {
    expect(parseCron(text)).toEqual({ ok: false, error: `Invalid cron expression "${text}": ${rest}.` });
  });
});

describe("nextOccurrence: day-of-month and day-of-week follow classic (Vixie) cron", () => {
  it("fires 0 12 13 * 5 on every 13th and every Friday (UTC, from 2026-04-01)", () => {
    // April 2026: Fridays 3, 10, 17; the 13th is a Monday.
    expect(next("0 12 13 * 5", "UTC", "2026-04-01T00:00:00Z", 4)).toEqual([
      "2026-04-03T12:00:00.000Z",
      "2026-04-10T12:00:00.000Z",
      "2026-04-13T12:00:00.000Z",
      "2026-04-17T12:00:00.000Z",
    ]);
  });

  it("fires 0 12 13 * 5 at 12:00 Berlin wall time (10:00Z in summer)", () => {
    expect(next("0 12 13 * 5", "Europe/Berlin", "2026-04-01T00:00:00Z", 4)).toEqual([
      "2026-04-03T10:00:00.000Z",
      "2026-04-10T10:00:00.000Z",
      "2026-04-13T10:00:00.000Z",
      "2026-04-17T10:00:00.000Z",
    ]);
  });

  it("counts */2 in day-of-month as unrestricted: 0 0 */2 * 1 fires on odd days that are Mondays", () => {
    // Mondays: 6, 13, 20, 27 April; 4, 11, 18, 25 May. Odd: 13, 27, 11, 25.
    expect(next("0 0 */2 * 1", "UTC", "2026-04-01T00:00:00Z", 4)).toEqual([
      "2026-04-13T00:00:00.000Z",
      "2026-04-27T00:00:00.000Z",
      "2026-05-11T00:00:00.000Z",
      "2026-05-25T00:00:00.000Z",
    ]);
  });

  it("walks lists, ranges and steps across months (*/15 9-10 1,15 JAN-MAR *)", () => {
    expect(next("*/15 9-10 1,15 JAN-MAR *", "UTC", "2026-01-15T10:40:00Z", 3)).toEqual([
      "2026-01-15T10:45:00.000Z",
      "2026-02-01T09:00:00.000Z",
      "2026-02-01T09:15:00.000Z",
    ]);
  });

  it.each(["0", "7"])("fires day-of-week %s on Sundays", (dow) => {
    expect(next(`0 0 * * ${dow}`, "UTC", "2026-04-01T00:00:00Z", 2)).toEqual(["2026-04-05T00:00:00.000Z", "2026-04-12T00:00:00.000Z"]);
  });

  it("fires weekdays at 09:00 New York wall time across its spring-forward (14:00Z then 13:00Z)", () => {
    expect(next("0 9 * * MON-FRI", "America/New_York", "2026-03-05T20:00:00Z", 2)).toEqual(["2026-03-06T14:00:00.000Z", "2026-03-09T13:00:00.000Z"]);
  });

  it("fires @monthly at midnight Tokyo (15:00Z the day before)", () => {
    expect(next("@monthly", "Asia/Tokyo", "2026-04-01T00:00:00Z", 2)).toEqual(["2026-04-30T15:00:00.000Z", "2026-05-31T15:00:00.000Z"]);
  });
});

describe("nextOccurrence: strictly after the reference instant", () => {
  it("from exactly an occurrence returns the next one", () => {
    expect(next("0 12 13 * 5", "UTC", "2026-04-03T12:00:00Z")).toEqual(["2026-04-10T12:00:00.000Z"]);
  });

  it("from a millisecond before an occurrence returns that occurrence", () => {
    expect(next("0 12 13 * 5", "UTC", "2026-04-03T11:59:59.999Z")).toEqual(["2026-04-03T12:00:00.000Z"]);
  });

  it("from exactly an occurrence in a zone returns the next one (Berlin 08:00 → next day)", () => {
    expect(next("0 8 * * *", "Europe/Berlin", "2026-07-01T06:00:00Z")).toEqual(["2026-07-02T06:00:00.000Z"]);
  });
});

describe("nextOccurrence: leap days and the 5-year bound", () => {
  it("finds 29 Feb 2028 for 0 0 29 2 * from 2026-03-01 (UTC)", () => {
    expect(next("0 0 29 2 *", "UTC", "2026-03-01T00:00:00Z", 2)).toEqual(["2028-02-29T00:00:00.000Z", "2032-02-29T00:00:00.000Z"]);
  });

  it.each(["0 0 30 2 *", "0 0 31 4,6 *"])("returns null for %s, which never fires", (text) => {
    expect(nextOccurrence(cron(text), "UTC", Date.parse("2026-03-01T00:00:00Z"))).toBeNull();
  });

  it("returns null for 0 0 29 2 * from 2097-03-01: 2100 is no leap year and 2104 is beyond 5 years", () => {
    expect(nextOccurrence(cron("0 0 29 2 *"), "UTC", Date.parse("2097-03-01T00:00:00Z"))).toBeNull();
  });

  it.each(["0 0 30 2 *", "0 0 31 4,6 *"])("preview refuses %s with the never-fires sentence", async (text) => {
    expect(await preview({ cron: text }, "Europe/Berlin", Date.parse("2026-03-01T00:00:00Z"))).toEqual({
      ok: false,
      error: `The cron expression "${text}" never fires within 5 years; check its day-of-month, month and day-of-week fields.`,
    });
  });
});

describe("nextOccurrence: DST in the chat's zone", () => {
  it("fires a gap time once, at the first instant after the gap (Berlin 02:30 on 2026-03-29 → 01:00Z)", () => {
    expect(next("30 2 * * *", "Europe/Berlin", "2026-03-28T12:00:00Z", 2)).toEqual(["2026-03-29T01:00:00.000Z:gap", "2026-03-30T00:30:00.000Z"]);
  });

  it("fires several matches in one gap once (*/15 2 * * * in Berlin)", () => {
    expect(next("*/15 2 * * *", "Europe/Berlin", "2026-03-28T12:00:00Z", 2)).toEqual(["2026-03-29T01:00:00.000Z:gap", "2026-03-30T00:00:00.000Z"]);
  });

  it("fires a midnight gap at 01:00 (Havana, 2026-03-08 → 05:00Z)", () => {
    expect(next("0 0 * * *", "America/Havana", "2026-03-07T06:00:00Z", 2)).toEqual(["2026-03-08T05:00:00.000Z:gap", "2026-03-09T04:00:00.000Z"]);
  });

  it("fires a fixed expression once at a fall-back, at the first instant (30 2 * * * Berlin)", () => {
    expect(next("30 2 * * *", "Europe/Berlin", "2026-10-24T12:00:00Z", 2)).toEqual(["2026-10-25T00:30:00.000Z:first", "2026-10-26T01:30:00.000Z"]);
  });

  it("fires a fixed list once per wall time at a fall-back (0,30 2 * * * Berlin)", () => {
    expect(next("0,30 2 * * *", "Europe/Berlin", "2026-10-24T12:00:00Z", 3)).toEqual([
      "2026-10-25T00:00:00.000Z:first",
      "2026-10-25T00:30:00.000Z:first",
      "2026-10-26T01:00:00.000Z",
    ]);
  });

  it("fires an interval expression in both passes of a fall-back (*/30 * * * * Berlin)", () => {
    expect(next("*/30 * * * *", "Europe/Berlin", "2026-10-25T00:15:00Z", 4)).toEqual([
      "2026-10-25T00:30:00.000Z",
      "2026-10-25T01:00:00.000Z:second",
      "2026-10-25T01:30:00.000Z:second",
      "2026-10-25T02:00:00.000Z",
    ]);
  });

  it("fires an hour range in both passes (0 1-3 * * * Berlin: 02:00 at 00:00Z and 01:00Z)", () => {
    expect(next("0 1-3 * * *", "Europe/Berlin", "2026-10-24T12:00:00Z", 4)).toEqual([
      "2026-10-24T23:00:00.000Z",
      "2026-10-25T00:00:00.000Z",
      "2026-10-25T01:00:00.000Z:second",
      "2026-10-25T02:00:00.000Z",
    ]);
  });

  it("fires the 30-minute Lord Howe overlap twice for an interval (*/15 1 * * *)", () => {
    expect(next("*/15 1 * * *", "Australia/Lord_Howe", "2026-04-04T14:00:00Z", 5)).toEqual([
      "2026-04-04T14:15:00.000Z",
      "2026-04-04T14:30:00.000Z",
      "2026-04-04T14:45:00.000Z",
      "2026-04-04T15:00:00.000Z:second",
      "2026-04-04T15:15:00.000Z:second",
    ]);
  });

  it("fires a Lord Howe gap time at the end of its 30-minute gap (15 2 * * * → 15:30Z)", () => {
    expect(next("15 2 * * *", "Australia/Lord_Howe", "2026-10-03T00:00:00Z", 2)).toEqual(["2026-10-03T15:30:00.000Z:gap", "2026-10-04T15:15:00.000Z"]);
  });

  it("applies the DST rules to the last-Sunday form: 0 2 * * 0L in Berlin is in March's gap and October's overlap", () => {
    expect(next("0 2 * * 0L", "Europe/Berlin", "2026-03-01T00:00:00Z", 2)).toEqual(["2026-03-29T01:00:00.000Z:gap", "2026-04-26T00:00:00.000Z"]);
    expect(next("0 2 * * 0L", "Europe/Berlin", "2026-10-01T00:00:00Z", 2)).toEqual(["2026-10-25T00:00:00.000Z:first", "2026-11-29T01:00:00.000Z"]);
  });

  it("fires a wrapping hour range in both passes of a fall-back (0 22-2 * * * is an interval)", () => {
    // 22:00 and 23:00 CEST, then 00:00 and 01:00, then 02:00 twice (CEST, then CET).
    const hours = next("0 22-2 * * *", "Europe/Berlin", "2026-10-24T19:30:00Z", 6).map((o) => o.slice(8, 13) + o.slice(24));
    expect(hours).toEqual(["24T20", "24T21", "24T22", "24T23", "25T00", "25T01:second"]);
  });

  it("fires the weekday nearest the 1st across a month start (1W: Saturday 1 Aug 2026 → Monday 3rd)", () => {
    expect(next("0 9 1W * *", "UTC", "2026-07-01T12:00:00Z", 3)).toEqual(["2026-08-03T09:00:00.000Z", "2026-09-01T09:00:00.000Z", "2026-10-01T09:00:00.000Z"]);
  });

  it("skips a month with no L-30 (February) and no 31W (April)", () => {
    expect(next("0 9 L-30 * *", "UTC", "2026-01-15T00:00:00Z", 2)).toEqual(["2026-03-01T09:00:00.000Z", "2026-05-01T09:00:00.000Z"]);
    expect(next("0 9 31W * *", "UTC", "2026-03-31T12:00:00Z", 1)).toEqual(["2026-05-29T09:00:00.000Z"]);
  });

  it("ORs a W form with a weekday (0 9 15W * 1: the weekday nearest the 15th, and every Monday)", () => {
    expect(next("0 9 15W * 1", "UTC", "2026-08-09T00:00:00Z", 3)).toEqual(["2026-08-10T09:00:00.000Z", "2026-08-14T09:00:00.000Z", "2026-08-17T09:00:00.000Z"]);
  });

  it("notes a gap occurrence with the docs/time.md sentence in preview", async () => {
    const r = await preview({ cron: "30 2 * * *" }, "Europe/Berlin", Date.parse("2026-03-28T12:00:00Z"), 2);
    expect(r).toEqual({
      ok: true,
      value: {
        occurrences: ["2026-03-29T01:00:00.000Z", "2026-03-30T00:30:00.000Z"],
        notes: ["2026-03-29 02:30 does not exist in Europe/Berlin; runs at 03:00"],
        read: { schedule: { type: "cron", cron: expect.objectContaining({ source: "30 2 * * *" }) }, ends: { until: null, runsLeft: null } },
      },
    });
  });
});
