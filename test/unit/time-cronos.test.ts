/**
 * Cron against Cronos's own GetNextOccurrence tests (HangfireIO/Cronos, CronExpressionFacts.cs), the cases
 * Cuckoo's dialect can express (test/fixtures/cronos/generate.mjs wrote next-occurrence.json, with the instant
 * each case expects). Every case agrees, but for those listed below with their reason: where both day fields
 * are restricted Cronos ANDs them and Cuckoo keeps cron's OR (docs/time.md); for those the Playa import's
 * `cronosRule` is checked to give Cronos's answer as a recurrence rule.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { type CronSchedule, cronosRule, nextOccurrence, nextRuleOccurrence, parseCron, parseRuleSchedule } from "../../src/time";

type Case = { test: string; cronos: string; cron: string; zone: string; from: string; inclusive: boolean; after: string; expected: string | null };
const fixture = JSON.parse(readFileSync(new URL("../fixtures/cronos/next-occurrence.json", import.meta.url), "utf8")) as {
  leftOut: Record<string, number>;
  cases: Case[];
};

/** Both day fields restricted: Cronos runs on days matching both, Cuckoo on days matching either. */
const OR_RULE = [
  "05 18 13 01 05",
  "05 18 13 * 05",
  "47 17 09 12 5",
  "47 17 09 DEC FRI",
  "40-50 15-20 5-10 11,12 5,6,7",
  "5 5 5 5 5",
  "* * 1 * SUN#2",
  "* * 7 * SUN#2",
  "* * 1 * SUN#3",
  "* * 14 * SUN#3",
  "* * 1 * SUN#4",
  "* * 21 * SUN#4",
  "* * 1 * SUN#5",
  "* * 28 * SUN#5",
  "* * 1-28 * SUN#5",
  "* * 8 * MON#1",
  "* * 31 * MON#1",
  "* * 15 * TUE#2",
  "* * 31 * TUE#2",
  "* * 22 * WED#3",
  "* * 31 * WED#3",
  "* * 29 * THU#4",
  "* * 31 * THU#4",
  "* * 21 * 7L",
  "* * 21 * 0L",
  "* * 11 * 0L",
  "* * 1 * 0L",
  "* * L * SUN#1",
  "* * L * SUN#2",
  "* * L * SUN#3",
  "* * L 1 SUN#4",
  "* * L 3-12 SUN#4",
  "* * L-1 2 SUN#5",
  "* * L-2 4 SUN#5",
  "* * L-3 * SUN#5",
  "* * L-10 * SUN#4",
  "* * 1W * SUN",
  "* * 4W * 0",
  "* * 7W * 7",
  "* * 5W * SAT",
  "* * 14W * 6#2",
  "* * 7W * FRI#2",
  "* * 14W * TUE#3",
  "* * 11W * MON#3",
  "* * 21W * TUE#4",
  "* * 28W * SAT#5",
  "* * 21W * 0L",
  "* * 19W * 1L",
  "* * 1W * 1L",
  "* * 21W * 2L",
  "* * 2W * 2L",
  "* * 21W * 3L",
  "* * 3W * 3L",
  "* * 21W * 4L",
  "* * 4W * 4L",
  "* * 21W * 5L",
  "* * 5W * 5L",
  "* * 21W * 6L",
  "* * 21W * 7L",
  "* * LW * SUN",
  "* * LW * 0",
  "* * LW * 0L",
  "* * LW * SAT",
  "* * LW * 6",
  "* * LW * 6L",
  "* * LW * 1#1",
  "* * LW * 2#2",
  "* * LW * 3#3",
  "* * LW 1 4#4",
  "* * LW 3-12 4#4",
];

/**
 * From exactly the first instant after a spring-forward gap (Amman, 01:00 +03:00 on the day the clocks skip
 * 00:00–01:00), searched inclusively: Cronos searches wall times from 01:00, so the gap's 00:30 is behind it;
 * by docs/time.md that 00:30 runs at 01:00, which an inclusive search includes. Cuckoo only ever searches strictly
 * after its last run, and strictly after that instant both answer the next month's day.
 */
const GAP_END_INCLUSIVE = [
  { cron: "30 0 L * *", from: "2017-03-31 01:00 +03:00", ours: "2017-03-30T22:00:00.000Z" },
  { cron: "30 0 LW * *", from: "2018-03-30 01:00 +03:00", ours: "2018-03-29T22:00:00.000Z" },
];

const iso = (o: { at: number } | null): string | null => (o ? new Date(o.at).toISOString() : null);

function cron(text: string): CronSchedule {
  const parsed = parseCron(text);
  if (!parsed.ok) throw new Error(`${text}: ${parsed.error}`);
  return parsed.value;
}

/** Cronos searches until the year 9999; 10 years covers every case here (5 5 5 5 5 is six years away). */
const WIDE = 3700;

describe("Cronos's GetNextOccurrence cases", () => {
  it(`has the cases the generator kept (${fixture.cases.length}) and says what it left out`, () => {
    expect(fixture.cases.length).toBe(1040);
    expect(fixture.leftOut).toEqual({
      "a seconds field without 0": 34,
      "an expected instant off the whole minute": 38,
      "H (hashed times)": 32,
      "a seconds field that makes the expression an interval at fall-back": 27,
      "@every_second": 2,
      "jitter seed (hashed times)": 13,
    });
  });

  it("agrees on every case but those of the OR rule and the two inclusive searches from a gap's end", () => {
    const differ = new Set<string>();
    let agreed = 0;
    for (const c of fixture.cases) {
      const got = iso(nextOccurrence(cron(c.cron), c.zone, Date.parse(c.after), WIDE));
      if (got === c.expected) agreed++;
      else {
        const gap = GAP_END_INCLUSIVE.find((g) => g.cron === c.cron && g.from === c.from);
        expect(OR_RULE.includes(c.cron) || gap?.ours === got, `${c.cron} in ${c.zone} from ${c.from}: Cronos ${c.expected}, Cuckoo ${got}`).toBe(true);
        differ.add(c.cron);
      }
    }
    expect([...differ].filter((d) => !GAP_END_INCLUSIVE.some((g) => g.cron === d)).sort()).toEqual([...OR_RULE].sort());
    expect(agreed).toBe(fixture.cases.length - 81);
  });

  it("answers the gap-end cases as Cronos does when asked strictly after the instant", () => {
    for (const g of GAP_END_INCLUSIVE) {
      const c = fixture.cases.find((x) => x.cron === g.cron && x.from === g.from)!;
      expect(iso(nextOccurrence(cron(c.cron), c.zone, Date.parse(g.ours)))).toBe(c.expected);
    }
  });

  it("fires the OR cases on the earlier of the two day fields alone (cron's OR)", () => {
    for (const c of fixture.cases.filter((x) => OR_RULE.includes(x.cron))) {
      const [m, h, dom, mon, dow] = c.cron.split(" ");
      const after = Date.parse(c.after);
      const byDom = nextOccurrence(cron(`${m} ${h} ${dom} ${mon} *`), c.zone, after, WIDE);
      const byDow = nextOccurrence(cron(`${m} ${h} * ${mon} ${dow}`), c.zone, after, WIDE);
      const earlier = [byDom, byDow].filter((o) => o !== null).sort((a, b) => a.at - b.at)[0] ?? null;
      expect(iso(nextOccurrence(cron(c.cron), c.zone, after, WIDE)), c.cron).toBe(iso(earlier));
    }
  });

  it("turns each OR case into the rule that gives Cronos's answer, or says no rule can (W with a weekday)", () => {
    let ruled = 0;
    for (const c of fixture.cases.filter((x) => OR_RULE.includes(x.cron))) {
      const rule = cronosRule(cron(c.cron))!;
      if (/W/.test(c.cron.split(" ")[2]!) && !/^L$/.test(c.cron.split(" ")[2]!)) {
        expect(rule).toEqual({
          ok: false,
          error: `Cronos runs "${c.cron}" only on days that match both its day-of-month and its day-of-week, and no recurrence rule can say "the weekday nearest" a day and a weekday as well; rewrite it as two jobs or a rule.`,
        });
        continue;
      }
      expect(rule.ok, c.cron).toBe(true);
      if (!rule.ok) continue;
      const start = new Date(Date.parse(c.after) - 86_400_000).toISOString().slice(0, 10);
      const schedule = parseRuleSchedule({ rrule: rule.value, start: `${start}T00:00` }, c.zone);
      expect(schedule.ok, rule.value).toBe(true);
      if (!schedule.ok) continue;
      expect(iso(nextRuleOccurrence(schedule.value, c.zone, Date.parse(c.after), WIDE)), `${c.cron} → ${rule.value}`).toBe(c.expected);
      ruled++;
    }
    expect(ruled).toBe(49);
  });
});

describe("cronosRule", () => {
  it.each([
    ["0 0 13 * 5", "FREQ=MONTHLY;BYMONTHDAY=13;BYDAY=FR;BYHOUR=0;BYMINUTE=0"],
    ["30 9 L * 1-5", "FREQ=MONTHLY;BYMONTHDAY=-1;BYDAY=MO,TU,WE,TH,FR;BYHOUR=9;BYMINUTE=30"],
    ["0 17 1-7 JAN,JUL 5L", "FREQ=MONTHLY;BYMONTH=1,7;BYMONTHDAY=1,2,3,4,5,6,7;BYDAY=-1FR;BYHOUR=17;BYMINUTE=0"],
    ["*/30 9-17 13 * FRI", "FREQ=MINUTELY;BYMONTHDAY=13;BYDAY=FR;BYHOUR=9,10,11,12,13,14,15,16,17;BYMINUTE=0,30"],
    ["0 8 L-2 * MON#1", "FREQ=MONTHLY;BYMONTHDAY=-3;BYDAY=1MO;BYHOUR=8;BYMINUTE=0"],
  ])("%s → %s", (text, rule) => {
    expect(cronosRule(cron(text))).toEqual({ ok: true, value: rule });
  });

  it.each(["0 0 13 * *", "0 0 * * 5", "0 0 */2 * 1", "0 0 ? * 5", "0 0 13 * ?"])("is null for %s, which means the same to Cronos and to cron", (text) => {
    expect(cronosRule(cron(text))).toBeNull();
  });
});
