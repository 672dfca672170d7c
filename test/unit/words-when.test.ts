/**
 * A one-off WHEN as a person types it (docs/telegram.md, issue 14): every phrase of the issue with the instant it
 * means, in several zones, on the DST change days of Europe/Berlin and America/New_York, around midnight and at
 * month ends; the eight languages; the split of WHEN from the text; and the refusals, each with the part of the
 * input to quote back.
 */
import { describe, expect, it } from "vitest";
import { readWhen, type WhenResult } from "../../src/words";

/** What `readWhen` made of `input` at `now` in `zone`: `<instant> | <phrase> | <rest>`, or the problem. */
async function read(input: string, zone: string, now: string): Promise<string> {
  return shown(await readWhen(input, zone, Date.parse(now)));
}

function shown(r: WhenResult): string {
  if (!r.ok) return `${r.problem.kind}: ${r.problem.phrase}`;
  return `${new Date(r.value.instant).toISOString()} | ${r.value.phrase} | ${r.value.rest}`;
}

/** Tuesday 1 December 2026, 10:00 in Berlin (UTC+1 all December), a few seconds past the minute. */
const BERLIN_TUE = "2026-12-01T09:00:37.123Z";

describe("the issue's phrases, read in Europe/Berlin on Tue 1 Dec 2026 10:00", () => {
  const table: [string, string][] = [
    // relative: from now, to the millisecond
    ["in 2 hours check oven", "2026-12-01T11:00:37.123Z | in 2 hours | check oven"],
    ["in 10 min tea", "2026-12-01T09:10:37.123Z | in 10 min | tea"],
    ["20m stretch", "2026-12-01T09:20:37.123Z | 20m | stretch"],
    ["1h30m call back", "2026-12-01T10:30:37.123Z | 1h30m | call back"],
    // spaced parts and halves are one delay, not an hour with "30m" or "and a half" as the text
    ["1h 30m call back", "2026-12-01T10:30:37.123Z | 1h 30m | call back"],
    ["1d 2h 5m call back", "2026-12-02T11:05:37.123Z | 1d 2h 5m | call back"],
    ["in an hour and a half call back", "2026-12-01T10:30:37.123Z | in an hour and a half | call back"],
    ["in 2 hours and a half call back", "2026-12-01T11:30:37.123Z | in 2 hours and a half | call back"],
    ["in 2 days and a half call back", "2026-12-03T21:00:00.000Z | in 2 days and a half | call back"],
    ["1h 30 pages", "2026-12-01T10:00:37.123Z | 1h | 30 pages"],
    ["1d water plants", "2026-12-02T09:00:37.123Z | 1d | water plants"],
    ["PT20M stretch", "2026-12-01T09:20:37.123Z | PT20M | stretch"],
    // clock times: the next one, today or tomorrow
    ["9am standup", "2026-12-02T08:00:00.000Z | 9am | standup"],
    ["14:30 call mum", "2026-12-01T13:30:00.000Z | 14:30 | call mum"],
    ["9:15pm lights", "2026-12-01T20:15:00.000Z | 9:15pm | lights"],
    // days
    ["tomorrow 9am call mum", "2026-12-02T08:00:00.000Z | tomorrow 9am | call mum"],
    ["monday 9:00 standup", "2026-12-07T08:00:00.000Z | monday 9:00 | standup"],
    ["next friday at noon lunch", "2026-12-11T11:00:00.000Z | next friday at noon | lunch"],
    ["on the 3rd at 8 dentist", "2026-12-03T07:00:00.000Z | on the 3rd at 8 | dentist"],
    ["3 March 10:00 visa", "2027-03-03T09:00:00.000Z | 3 March 10:00 | visa"],
    ["2026-12-02 14:30 call mum", "2026-12-02T13:30:00.000Z | 2026-12-02 14:30 | call mum"],
    ["2026-12-02T14:30 call mum", "2026-12-02T13:30:00.000Z | 2026-12-02T14:30 | call mum"],
    ["2026-12-02T14:30Z call mum", "2026-12-02T14:30:00.000Z | 2026-12-02T14:30Z | call mum"],
    // a date alone is 09:00; a weekday alone, the coming one at 09:00
    ["2026-12-02 pay rent", "2026-12-02T08:00:00.000Z | 2026-12-02 | pay rent"],
    ["tomorrow water plants", "2026-12-02T08:00:00.000Z | tomorrow | water plants"],
    ["friday bins", "2026-12-04T08:00:00.000Z | friday | bins"],
    ["3 March visa", "2027-03-03T08:00:00.000Z | 3 March | visa"],
    // a time of day in words keeps it
    ["tonight movie", "2026-12-01T21:00:00.000Z | tonight | movie"],
  ];
  it.each(table)("%s → %s", async (input, expected) => {
    expect(await read(input, "Europe/Berlin", BERLIN_TUE)).toBe(expected);
  });
});

describe("the other languages, by script: English, then German, French, Spanish, Portuguese; Cyrillic; Japanese", () => {
  const table: [string, string][] = [
    ["morgen um 9 Mama anrufen", "2026-12-02T08:00:00.000Z | morgen um 9 | Mama anrufen"],
    ["14:30 Uhr Zahnarzt", "2026-12-01T13:30:00.000Z | 14:30 Uhr | Zahnarzt"],
    ["in 2 Stunden Ofen", "2026-12-01T11:00:37.123Z | in 2 Stunden | Ofen"],
    ["demain à 9h appeler maman", "2026-12-02T08:00:00.000Z | demain à 9h | appeler maman"],
    ["mañana a las 9 llamar a mamá", "2026-12-02T08:00:00.000Z | mañana a las 9 | llamar a mamá"],
    ["amanhã às 9 ligar para a mãe", "2026-12-02T08:00:00.000Z | amanhã às 9 | ligar para a mãe"],
    ["завтра в 9 позвонить маме", "2026-12-02T08:00:00.000Z | завтра в 9 | позвонить маме"],
    ["завтра о 9 подзвонити мамі", "2026-12-02T08:00:00.000Z | завтра о 9 | подзвонити мамі"],
    ["明日9時にお母さんに電話", "2026-12-02T08:00:00.000Z | 明日9時 | お母さんに電話"],
  ];
  it.each(table)("%s → %s", async (input, expected) => {
    expect(await read(input, "Europe/Berlin", BERLIN_TUE)).toBe(expected);
  });
});

describe("the same wall times in other zones (December: New York UTC-5, Tokyo UTC+9, UTC)", () => {
  // 10:00 local on Tue 1 Dec in each zone.
  const zones: [string, string, number][] = [
    ["America/New_York", "2026-12-01T15:00:00.000Z", -5],
    ["Asia/Tokyo", "2026-12-01T01:00:00.000Z", 9],
    ["UTC", "2026-12-01T10:00:00.000Z", 0],
  ];
  const phrases: [string, string][] = [
    ["tomorrow 9am x", "2026-12-02T09:00"],
    ["9am x", "2026-12-02T09:00"],
    ["14:30 x", "2026-12-01T14:30"],
    ["monday 9:00 x", "2026-12-07T09:00"],
    ["2026-12-02 x", "2026-12-02T09:00"],
    ["on the 3rd at 8 x", "2026-12-03T08:00"],
  ];
  for (const [zone, now, offset] of zones) {
    it.each(phrases)(`${zone}: %s is %s there`, async (input, local) => {
      const expected = new Date(Date.parse(`${local}:00Z`) - offset * 3_600_000).toISOString();
      expect((await read(input, zone, now)).split(" | ")[0]).toBe(expected);
    });
  }
});

describe("DST change days: the wall time is resolved in the zone, not at chrono's one fixed offset", () => {
  const table: [zone: string, now: string, input: string, expected: string][] = [
    // Berlin springs forward on Sun 29 Mar 2026 (02:00 → 03:00); now Sat 10:00 CET.
    ["Europe/Berlin", "2026-03-28T09:00:00Z", "tomorrow 9am x", "2026-03-29T07:00:00.000Z | tomorrow 9am | x"],
    ["Europe/Berlin", "2026-03-28T09:00:00Z", "tomorrow 2:30am x", "2026-03-29T01:30:00.000Z | tomorrow 2:30am | x"],
    ["Europe/Berlin", "2026-03-28T09:00:00Z", "in 24 hours x", "2026-03-29T09:00:00.000Z | in 24 hours | x"],
    ["Europe/Berlin", "2026-03-28T09:00:00Z", "1d x", "2026-03-29T08:00:00.000Z | 1d | x"],
    // Berlin falls back on Sun 25 Oct 2026 (03:00 → 02:00); now Sat 10:00 CEST.
    ["Europe/Berlin", "2026-10-24T08:00:00Z", "tomorrow 9am x", "2026-10-25T08:00:00.000Z | tomorrow 9am | x"],
    ["Europe/Berlin", "2026-10-24T08:00:00Z", "tomorrow 2:30am x", "2026-10-25T00:30:00.000Z | tomorrow 2:30am | x"],
    ["Europe/Berlin", "2026-10-24T08:00:00Z", "1d x", "2026-10-25T09:00:00.000Z | 1d | x"],
    // New York springs forward on Sun 8 Mar 2026; now Sat 10:00 EST.
    ["America/New_York", "2026-03-07T15:00:00Z", "tomorrow 9am x", "2026-03-08T13:00:00.000Z | tomorrow 9am | x"],
    ["America/New_York", "2026-03-07T15:00:00Z", "tomorrow 2:30am x", "2026-03-08T07:30:00.000Z | tomorrow 2:30am | x"],
    ["America/New_York", "2026-03-07T15:00:00Z", "in 24 hours x", "2026-03-08T15:00:00.000Z | in 24 hours | x"],
    // New York falls back on Sun 1 Nov 2026; now Sat 31 Oct 23:00 EDT.
    ["America/New_York", "2026-11-01T03:00:00Z", "tomorrow 9am x", "2026-11-01T14:00:00.000Z | tomorrow 9am | x"],
    ["America/New_York", "2026-11-01T03:00:00Z", "9am x", "2026-11-01T14:00:00.000Z | 9am | x"],
    ["America/New_York", "2026-11-01T03:00:00Z", "1:30am x", "2026-11-01T05:30:00.000Z | 1:30am | x"],
  ];
  it.each(table)("%s at %s: %s → %s", async (zone, now, input, expected) => {
    expect(await read(input, zone, now)).toBe(expected);
  });

  it("says when a wall time does not exist or occurs twice", async () => {
    const gap = await readWhen("tomorrow 2:30am x", "Europe/Berlin", Date.parse("2026-03-28T09:00:00Z"));
    expect(gap.ok && gap.value.note).toBe("2026-03-29 02:30 does not exist in Europe/Berlin; runs at 03:30");
    const twice = await readWhen("tomorrow 2:30am x", "Europe/Berlin", Date.parse("2026-10-24T08:00:00Z"));
    expect(twice.ok && twice.value.note).toBe("2026-10-25 02:30 occurs twice in Europe/Berlin; runs at the first (UTC+02:00)");
    const plain = await readWhen("tomorrow 9am x", "Europe/Berlin", Date.parse("2026-10-24T08:00:00Z"));
    expect(plain.ok && plain.value.note).toBeNull();
  });
});

describe("around midnight and at month ends", () => {
  const table: [zone: string, now: string, input: string, expected: string][] = [
    // New Year's Eve, 23:59 in Berlin.
    ["Europe/Berlin", "2026-12-31T22:59:00Z", "tomorrow 9am x", "2027-01-01T08:00:00.000Z | tomorrow 9am | x"],
    ["Europe/Berlin", "2026-12-31T22:59:00Z", "9am x", "2027-01-01T08:00:00.000Z | 9am | x"],
    ["Europe/Berlin", "2026-12-31T22:59:00Z", "00:30 x", "2026-12-31T23:30:00.000Z | 00:30 | x"],
    ["Europe/Berlin", "2026-12-31T22:59:00Z", "midnight x", "2026-12-31T23:00:00.000Z | midnight | x"],
    ["Europe/Berlin", "2026-12-31T22:59:00Z", "in 2 minutes x", "2026-12-31T23:01:00.000Z | in 2 minutes | x"],
    // Just after midnight: "tomorrow" is the day after the one that just began.
    ["Europe/Berlin", "2026-12-01T23:01:00Z", "tomorrow 9am x", "2026-12-03T08:00:00.000Z | tomorrow 9am | x"],
    ["Europe/Berlin", "2026-12-01T23:01:00Z", "9am x", "2026-12-02T08:00:00.000Z | 9am | x"],
    // Sun 31 Jan 2027, 10:00: the next 31st is in March, the next 30th and 29th too (February is short).
    ["Europe/Berlin", "2027-01-31T09:00:00Z", "on the 31st at 8 x", "2027-03-31T06:00:00.000Z | on the 31st at 8 | x"],
    ["Europe/Berlin", "2027-01-31T09:00:00Z", "on the 30th x", "2027-03-30T07:00:00.000Z | on the 30th | x"],
    ["Europe/Berlin", "2027-01-31T09:00:00Z", "the 29th x", "2027-03-29T07:00:00.000Z | the 29th | x"],
    ["Europe/Berlin", "2027-01-31T09:00:00Z", "on the 1st at 9 x", "2027-02-01T08:00:00.000Z | on the 1st at 9 | x"],
    ["Europe/Berlin", "2027-01-31T09:00:00Z", "on the 31st at 11 x", "2027-01-31T10:00:00.000Z | on the 31st at 11 | x"],
    // A leap day comes only in a leap year.
    ["UTC", "2027-02-01T00:00:00Z", "2028-02-29 x", "2028-02-29T09:00:00.000Z | 2028-02-29 | x"],
  ];
  it.each(table)("%s at %s: %s → %s", async (zone, now, input, expected) => {
    expect(await read(input, zone, now)).toBe(expected);
  });
});

describe("what is refused, with the part to quote", () => {
  const table: [string, string][] = [
    // The date-and-time bug: "14:30" is never the start of the text, nor a date past or impossible taken.
    ["tomorow 9am call mum", "unreadable: tomorow"],
    ["blah blah", "unreadable: blah"],
    ["90s stretch", "seconds: 90s"],
    ["in 90 seconds stretch", "seconds: in 90 seconds"],
    ["PT90S stretch", "seconds: PT90S"],
    ["0m stretch", "too-soon: 0m"],
    ["2026-01-01 09:00 x", "past: 2026-01-01 09:00"],
    ["today 8am x", "past: today 8am"],
    ["today x", "past: today"],
    ["2031-12-31 x", "too-far: 2031-12-31"],
    ["2026-02-30 x", "not-real: 2026-02-30"],
    ["on the 32nd x", "not-real: on the 32nd"],
  ];
  it.each(table)("%s → %s", async (input, expected) => {
    expect(await read(input, "Europe/Berlin", BERLIN_TUE)).toBe(expected);
  });

  it("keeps the likely text of an unreadable WHEN for the examples", async () => {
    const r = await readWhen("tomorow 9am call mum", "Europe/Berlin", Date.parse(BERLIN_TUE));
    expect(r).toEqual({ ok: false, problem: { kind: "unreadable", phrase: "tomorow", rest: "call mum" } });
  });
});
