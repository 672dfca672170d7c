/**
 * A recurring WHEN as a person types it (DESIGN §6 `/every`, issue 14): every phrase of the issue with the cron
 * it makes, in the plain five-field form (numbers, Sunday = 0, ranges, steps, lists; no names or macros), the
 * split of WHEN from the text, and what is refused.
 */
import { describe, expect, it } from "vitest";
import { readEvery } from "../../src/time";
import { dayField } from "../../src/time/every";

function shown(input: string): string {
  const r = readEvery(input);
  return r.ok ? `${r.value.cron} | ${r.value.phrase} | ${r.value.rest}` : JSON.stringify(r.problem);
}

describe("the issue's phrases, with and without a leading every", () => {
  const table: [string, string][] = [
    ["every day at 8 summarise news", "0 8 * * * | every day at 8 | summarise news"],
    ["day at 8 summarise news", "0 8 * * * | day at 8 | summarise news"],
    ["weekdays at 8:30 check inbox", "30 8 * * 1-5 | weekdays at 8:30 | check inbox"],
    ["every monday 9:00 standup", "0 9 * * 1 | every monday 9:00 | standup"],
    ["monday 9:00 standup", "0 9 * * 1 | monday 9:00 | standup"],
    ["every 15 minutes stretch", "*/15 * * * * | every 15 minutes | stretch"],
    ["15 minutes stretch", "*/15 * * * * | 15 minutes | stretch"],
    ["every hour drink water", "0 * * * * | every hour | drink water"],
    ["hour drink water", "0 * * * * | hour | drink water"],
    ["every month on the 1st at 9 pay rent", "0 9 1 * * | every month on the 1st at 9 | pay rent"],
    ["month on the 1st at 9 pay rent", "0 9 1 * * | month on the 1st at 9 | pay rent"],
    ["mon,wed,fri at 18:00 gym", "0 18 * * 1,3,5 | mon,wed,fri at 18:00 | gym"],
  ];
  it.each(table)("%s → %s", (input, expected) => {
    expect(shown(input)).toBe(expected);
  });
});

describe("more forms", () => {
  const table: [string, string][] = [
    ["every minute ping", "* * * * * | every minute | ping"],
    ["every 2 hours ping", "0 */2 * * * | every 2 hours | ping"],
    ["every 30 min ping", "*/30 * * * * | every 30 min | ping"],
    ["daily at 21:15 lights", "15 21 * * * | daily at 21:15 | lights"],
    ["each day at 7am wake", "0 7 * * * | each day at 7am | wake"],
    ["every day at 6:45 pm walk", "45 18 * * * | every day at 6:45 pm | walk"],
    ["every day at noon lunch", "0 12 * * * | every day at noon | lunch"],
    ["every day at midnight backup", "0 0 * * * | every day at midnight | backup"],
    ["every day water plants", "0 9 * * * | every day | water plants"],
    ["weekends at 10 brunch", "0 10 * * 0,6 | weekends at 10 | brunch"],
    ["every sunday at 20:00 plan", "0 20 * * 0 | every sunday at 20:00 | plan"],
    ["mon, wed and fri at 6pm gym", "0 18 * * 1,3,5 | mon, wed and fri at 6pm | gym"],
    ["monday and thursday at 7 run", "0 7 * * 1,4 | monday and thursday at 7 | run"],
    ["mon-fri at 7:45 train", "45 7 * * 1-5 | mon-fri at 7:45 | train"],
    ["tuesday to thursday at noon call", "0 12 * * 2-4 | tuesday to thursday at noon | call"],
    ["sat-sun at 10 sleep in", "0 10 * * 0,6 | sat-sun at 10 | sleep in"],
    ["fri-mon at 9 long weekend", "0 9 * * 0,1,5,6 | fri-mon at 9 | long weekend"],
    ["the 15th of the month at 9 invoice", "0 9 15 * * | the 15th of the month at 9 | invoice"],
    ["monthly on the 28th bills", "0 9 28 * * | monthly on the 28th | bills"],
    ["8am pills", "0 8 * * * | 8am | pills"],
    ["at 8 on weekdays news", "0 8 * * 1-5 | at 8 on weekdays | news"],
    ["at 9:30 on mon,thu gym", "30 9 * * 1,4 | at 9:30 on mon,thu | gym"],
    // A bare number is a time only after "at": "3 pills" stays in the text.
    ["every day 3 pills", "0 9 * * * | every day | 3 pills"],
    // "am" inside a word is not a meridiem.
    ["every day at 8 amazing things", "0 8 * * * | every day at 8 | amazing things"],
  ];
  it.each(table)("%s → %s", (input, expected) => {
    expect(shown(input)).toBe(expected);
  });
});

describe("what is refused", () => {
  it("quotes the first word of a phrase it cannot read", () => {
    expect(shown("evry day at 8 x")).toBe(JSON.stringify({ kind: "unreadable", phrase: "evry" }));
    expect(shown("money talk")).toBe(JSON.stringify({ kind: "unreadable", phrase: "money" }));
  });

  it("refuses a step cron cannot keep evenly (45 minutes, 5 hours), quoting it", () => {
    expect(readEvery("every 45 minutes x")).toEqual({ ok: false, problem: { kind: "uneven", unit: "minute", n: 45, phrase: "every 45 minutes" } });
    expect(readEvery("every 5 hours x")).toEqual({ ok: false, problem: { kind: "uneven", unit: "hour", n: 5, phrase: "every 5 hours" } });
  });

  it("refuses an impossible clock time, quoting it, rather than taking 09:00", () => {
    expect(shown("every day at 25 x")).toBe(JSON.stringify({ kind: "unreadable", phrase: "at 25" }));
    expect(shown("weekdays at 8:75 x")).toBe(JSON.stringify({ kind: "unreadable", phrase: "at 8:75" }));
  });
});

describe("the day-of-week field", () => {
  it("writes runs of three or more as ranges, the rest as lists, all seven as *", () => {
    expect(dayField(new Set([1, 2, 3, 4, 5]))).toBe("1-5");
    expect(dayField(new Set([1, 3, 5]))).toBe("1,3,5");
    expect(dayField(new Set([0, 6]))).toBe("0,6");
    expect(dayField(new Set([1, 2]))).toBe("1,2");
    expect(dayField(new Set([0, 1, 2, 3, 5]))).toBe("0-3,5");
    expect(dayField(new Set([0, 1, 2, 3, 4, 5, 6]))).toBe("*");
  });
});
