/**
 * Recurrence rules against python-dateutil's `rrule`, the reference docs/time.md names: the rules of dateutil's
 * own docs and test suite that Cuckoo's rules can say, and 400 random rules, expanded by the real library
 * (test/fixtures/dateutil/generate.py wrote rrule.json). Read in UTC, where local time is the instant: the
 * expansion itself, before any DST rule. Each rule's first instances (COUNT and UNTIL applied as a job would:
 * runsLeft and until), and its next occurrence strictly after points on, between and years past its instances.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { nextRuleOccurrence, parseRuleSchedule, preview, type RuleSchedule } from "../../src/time";

type Entry = { origin: string; rrule: string; start: string; until: string | null; span: number; instances: string[]; after: [string, string | null][] };
const fixture = JSON.parse(readFileSync(new URL("../fixtures/dateutil/rrule.json", import.meta.url), "utf8")) as {
  source: string;
  published: Entry[];
  random: Entry[];
};

const utc = (local: string): number => Date.parse(`${local}:00Z`);
const local = (ms: number): string => new Date(ms).toISOString().slice(0, 16);

function schedule(e: Entry): RuleSchedule {
  const parsed = parseRuleSchedule({ rrule: e.rrule, start: e.start }, "UTC");
  if (!parsed.ok) throw new Error(`${e.rrule} from ${e.start}: ${parsed.error}`);
  return parsed.value;
}

/** The rule's instances from its start, as a job would run them: COUNT as runs left, UNTIL as until. */
function instances(e: Entry, s: RuleSchedule, limit: number): string[] {
  const out: string[] = [];
  let after = utc(e.start) - 1;
  const until = s.rule.until
    ? s.rule.until.kind === "date"
      ? s.rule.until.local
      : s.rule.until.kind === "local"
        ? s.rule.until.local
        : s.rule.until.at
    : null;
  while (out.length < limit && (s.rule.count === null || out.length < s.rule.count)) {
    const next = nextRuleOccurrence(s, "UTC", after, e.span + 1);
    if (!next || next.at > utc(e.start) + e.span * 86_400_000 || (until !== null && next.at > until)) break;
    out.push(local(next.at));
    after = next.at;
  }
  return out;
}

for (const [corpus, entries] of [
  ["published", fixture.published],
  ["random", fixture.random],
] as const) {
  describe(`recurrence rules agree with dateutil: ${corpus} (${entries.length} rules)`, () => {
    it("expands every rule to dateutil's instances", () => {
      for (const e of entries) {
        expect(instances(e, schedule(e), e.instances.length), `${e.rrule} from ${e.start}`).toEqual(e.instances);
      }
    });

    it("finds dateutil's next occurrence strictly after points on, between and years past the instances", () => {
      let asked = 0;
      for (const e of entries) {
        const s = schedule(e);
        for (const [point, expected] of e.after) {
          const next = nextRuleOccurrence(s, "UTC", utc(point), e.span + 1);
          const got = next && next.at - utc(point) <= e.span * 86_400_000 ? local(next.at) : null;
          expect(got, `${e.rrule} from ${e.start}, after ${point}`).toBe(expected);
          asked++;
        }
      }
      expect(asked).toBeGreaterThan(entries.length * 5);
    });
  });
}

describe("dateutil's published examples, as docs/time.md quotes them", () => {
  it("every other Tuesday at 10 from 8 Dec 2026 previews as dateutil expands it", async () => {
    const r = await preview({ rrule: "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU", start: "2026-12-08T10:00" }, "UTC", Date.parse("2026-12-01T00:00:00Z"), 3);
    expect(r).toMatchObject({
      ok: true,
      value: { occurrences: ["2026-12-08T10:00:00.000Z", "2026-12-22T10:00:00.000Z", "2027-01-05T10:00:00.000Z"], notes: [] },
    });
  });
});
