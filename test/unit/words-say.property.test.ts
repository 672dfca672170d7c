/**
 * Property test: what is printed for a schedule reads back (docs/time.md#descriptions). Every form the reader
 * produces (`form.ts` from a plan: five-field crons in Cronos's dialect, windows of hours, rules with and without a
 * start, with `until` and a number of runs) and one-offs, drawn at random in four zones, is described in each of
 * the eight languages, with its zone in parentheses after it, and read back through the one reader
 * (`readSchedule`, the page's field: `whole`) in that language, from a zone that is not the description's: the
 * reading is in the zone the description names, and is the same schedule (the same cron, else the same next runs)
 * with the same ends. The same description is read back again a week later for a rule that said where it starts.
 */
import { describe, expect, it, vi } from "vitest";
import type { Schedule } from "../../src/time";
import { nextOccurrence, nextRuleOccurrence } from "../../src/time";
import { civilFields, DAY_MS, localMs, MINUTE_MS } from "../../src/time/civil";
import { resolveLocal, toLocal } from "../../src/time/zone";
import { readSchedule } from "../../src/words";
import { scheduleOf } from "../../src/words/form";
import type { Lang } from "../../src/words/lang";
import type { Clock, Position } from "../../src/words/phrase";
import { describe as say } from "../../src/words/say";
import type { Said } from "../../src/words/speech/types";
import { planOf } from "../../src/words/spoken";

const LANGS: readonly Lang[] = ["en", "de", "fr", "es", "pt", "it", "nl", "ru"];
const ZONES = ["Europe/Berlin", "America/New_York", "Asia/Tokyo", "Australia/Lord_Howe"];
const CASES = Number(process.env.SAY_CASES ?? 60);
vi.setConfig({ testTimeout: 30_000 + CASES * 100 });

/** Deterministic PRNG (mulberry32), so that a failure names its seed and case. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Draw = { int(lo: number, hi: number): number; pick<T>(items: readonly T[]): T; chance(p: number): boolean };
function draw(seed: number): Draw {
  const r = rng(seed);
  return {
    int: (lo, hi) => lo + Math.floor(r() * (hi - lo + 1)),
    pick: (items) => items[Math.floor(r() * items.length)]!,
    chance: (p) => r() < p,
  };
}

const pad = (n: number) => String(n).padStart(2, "0");
const dateText = (local: number) => {
  const f = civilFields(local);
  return `${f.year}-${pad(f.month)}-${pad(f.day)}`;
};

function someDays(d: Draw): number[] {
  const kind = d.int(0, 3);
  if (kind === 0) return [1, 2, 3, 4, 5];
  if (kind === 1) return [0, 6];
  const all = [0, 1, 2, 3, 4, 5, 6].filter(() => d.chance(0.4));
  return all.length === 0 || all.length === 7 ? [d.int(0, 6)] : all;
}

function someTimes(d: Draw): Clock[] {
  const minute = d.pick([0, 0, 15, 30, 45, 5]);
  const hours = [...new Set(Array.from({ length: d.int(1, 3) }, () => d.int(0, 23)))].sort((a, b) => a - b);
  return hours.map((hour) => ({ hour, minute }));
}

/** A plan the reader could have read, as `Said` (its unit always said). */
function somePlan(d: Draw, nowLocal: number): Said {
  const none = { days: null, monthDays: null, positions: null, month: null, times: [], window: null, start: null, until: null, runs: null };
  const kind = d.int(0, 8);
  let said: Said;
  if (kind === 0) said = { ...none, unit: "minute", interval: d.pick([1, 5, 10, 15, 20, 30, 45, 90]) };
  else if (kind === 1) said = { ...none, unit: "hour", interval: d.pick([1, 2, 3, 4, 6, 5]), days: d.chance(0.3) ? someDays(d) : null };
  else if (kind === 2) {
    const from = d.int(6, 10);
    const [unit, interval] = d.pick([
      ["minute", 15],
      ["minute", 30],
      ["minute", 20],
      ["hour", 1],
      ["hour", 2],
      ["minute", 90],
    ] as const);
    said = { ...none, unit, interval, window: { from: { hour: from, minute: 0 }, to: { hour: from + d.int(4, 9), minute: d.pick([0, 30]) } } };
    if (d.chance(0.4)) said.days = someDays(d);
  } else if (kind === 3) said = { ...none, unit: "day", interval: 1, times: someTimes(d), days: d.chance(0.6) ? someDays(d) : null };
  else if (kind === 4) said = { ...none, unit: "day", interval: d.int(2, 5), times: someTimes(d).slice(0, 1) };
  else if (kind === 5) said = { ...none, unit: "week", interval: d.int(2, 4), days: someDays(d), times: someTimes(d).slice(0, 1) };
  else if (kind === 6) {
    const days = d.chance(0.2)
      ? d.chance(0.5)
        ? [-1]
        : [1, -1]
      : [...new Set([d.int(1, 28), ...(d.chance(0.3) ? [d.int(1, 28)] : [])])].sort((a, b) => a - b);
    said = { ...none, unit: "month", interval: d.chance(0.7) ? 1 : d.int(2, 3), monthDays: days, times: someTimes(d).slice(0, 1) };
  } else if (kind === 7) {
    const p: Position = d.chance(0.3) ? { n: d.pick([1, -1]), day: "workday" } : { n: d.pick([1, 2, 3, 4, -1]), day: d.int(0, 6) };
    // The first and third Monday: two positions of one weekday.
    const positions: Position[] = p.day !== "workday" && p.n > 0 && p.n < 3 && d.chance(0.3) ? [p, { n: p.n + 2, day: p.day }] : [p];
    said = { ...none, unit: "month", interval: d.chance(0.8) ? 1 : 2, positions, times: someTimes(d).slice(0, 1) };
  } else said = { ...none, unit: "year", interval: d.chance(0.8) ? 1 : 2, month: d.int(1, 12), monthDays: [d.int(1, 28)], times: someTimes(d).slice(0, 1) };
  if (d.chance(0.25) && said.unit !== "minute" && said.unit !== "hour") said.start = { date: dateText(nowLocal + d.int(2, 40) * DAY_MS), time: null };
  if (d.chance(0.3)) {
    const local = nowLocal + d.int(60, 400) * DAY_MS;
    said.until = { date: dateText(local), time: d.chance(0.3) ? `${pad(d.int(0, 23))}:${pad(d.pick([0, 30]))}` : null };
  } else if (d.chance(0.2)) said.runs = d.int(1, 50);
  return said;
}

/** The next runs of a schedule from `now`. */
function runsOf(s: Schedule, zone: string, now: number, n = 8): number[] {
  const out: number[] = [];
  let after = now;
  for (let i = 0; i < n; i++) {
    const next =
      s.type === "at" ? (i === 0 ? { at: s.at } : null) : s.type === "cron" ? nextOccurrence(s.cron, zone, after) : nextRuleOccurrence(s.rule, zone, after);
    if (!next) break;
    out.push(next.at);
    after = next.at;
  }
  return out;
}

const iso = (ms: number[]) => ms.map((t) => new Date(t).toISOString());

describe.each(LANGS)("descriptions in %s read back as the same schedule", (lang) => {
  it(`for ${CASES} plans the reader could read, in four zones, and one-offs`, async () => {
    const d = draw(31 + LANGS.indexOf(lang));
    for (let i = 0; i < CASES; i++) {
      const zone = ZONES[i % ZONES.length]!;
      const other = ZONES[(i + 1) % ZONES.length]!;
      const now = Date.UTC(2026, d.int(0, 11), d.int(1, 28), d.int(0, 23), d.pick([0, 17, 30, 59]));
      const said = somePlan(d, toLocal(zone, now));
      const written = scheduleOf(planOf(said), zone, now);
      if (!written.ok) continue;
      const { schedule, ends } = written.value;
      const jobEnds = { until: ends.until ?? null, runsLeft: ends.runsLeft ?? null };
      const text = `${await say(schedule, jobEnds, { zone, now, language: lang })} (${zone})`;
      const back = await readSchedule(text, { zone: other, now, language: lang, whole: true });
      const where = `case ${i} (${lang}, ${zone}, now ${new Date(now).toISOString()}): ${JSON.stringify(said)} → "${text}"`;
      if (!back.ok) throw new Error(`${where} does not read back: ${back.message}`);
      expect(back.value.zone, where).toBe(zone);
      expect(iso(runsOf(back.value.schedule, zone, now)), where).toEqual(iso(runsOf(schedule, zone, now)));
      expect({ until: back.value.ends.until ?? null, runsLeft: back.value.ends.runsLeft ?? null }, where).toEqual(jobEnds);
      // A week on, the same words still say the same runs from then (a rule said where it starts).
      if (schedule.type === "rule" && jobEnds.until === null && jobEnds.runsLeft === null) {
        const later = now + 7 * DAY_MS;
        const again = await readSchedule(`${await say(schedule, jobEnds, { zone, now: later, language: lang })} (${zone})`, {
          zone,
          now: later,
          language: lang,
          whole: true,
        });
        if (!again.ok) throw new Error(`${where}, a week on: ${again.message}`);
        expect(iso(runsOf(again.value.schedule, zone, later)), `${where}, a week on`).toEqual(iso(runsOf(schedule, zone, later)));
      }
    }
  });

  it("for crons as people write them: phrased when a phrase says the same, else shown as written", async () => {
    const crons = [
      "@daily",
      "@hourly",
      "@weekly",
      "@monthly",
      "@yearly",
      '"0 9 * * MON-FRI"',
      "0 0 */2 * 1",
      "0 22-2 * * *",
      '"5 4 * * sun"',
      '"0 0 */2 * MON"',
    ];
    crons.push("0 12 13 * 5", "0 17 * * 5L", "0 9 LW * *", "*/10 9-17 * * 1-5", "0,30 * * * *", "15 14 1 * *", "0 9 1W * *", "0 8 L-2 * *", "0 9 15W * *");
    const now = Date.UTC(2026, 11, 7, 10);
    for (const cron of crons) {
      const read = await readSchedule(cron, { zone: "Europe/Berlin", now, whole: true });
      if (!read.ok) throw new Error(read.message);
      const text = `${await say(read.value.schedule, { until: null, runsLeft: 3 }, { zone: "Europe/Berlin", now, language: lang })} (Europe/Berlin)`;
      const back = await readSchedule(text, { zone: "UTC", now, language: lang, whole: true });
      if (!back.ok) throw new Error(`${cron} → "${text}" does not read back: ${back.message}`);
      expect(iso(runsOf(back.value.schedule, "Europe/Berlin", now, 12)), `${cron} → "${text}"`).toEqual(
        iso(runsOf(read.value.schedule, "Europe/Berlin", now, 12)),
      );
      expect(back.value.ends.runsLeft, `${cron} → "${text}"`).toBe(3);
    }
  });

  it("for one-offs at any minute of the next five years that is not said twice (a fall-back's second pass)", async () => {
    const d = draw(131 + LANGS.indexOf(lang));
    for (let i = 0; i < CASES; i++) {
      const zone = ZONES[i % ZONES.length]!;
      const now = Date.UTC(2026, d.int(0, 11), d.int(1, 28), d.int(0, 23), d.int(0, 59));
      const local = Math.floor(toLocal(zone, now) / MINUTE_MS) * MINUTE_MS + d.int(2, 5 * 365 * 24 * 60 - 2 * 24 * 60) * MINUTE_MS;
      const r = resolveLocal(zone, local);
      if (r.kind !== "normal") continue;
      const at: Schedule = { type: "at", at: r.instant };
      const text = `${await say(at, { until: null, runsLeft: null }, { zone, now, language: lang })} (${zone})`;
      const back = await readSchedule(text, { zone: "UTC", now, language: lang, whole: true });
      const where = `case ${i} (${lang}, ${zone}, now ${new Date(now).toISOString()}): "${text}"`;
      if (!back.ok) throw new Error(`${where} does not read back: ${back.message}`);
      expect(back.value.schedule, where).toEqual(at);
      void localMs;
    }
  });
});
