/**
 * Property test: the engine's next occurrence against a brute-force reference written here, over thousands
 * of random expressions that fire at least every few days, in many zones, from instants near DST transitions.
 *
 * The reference shares no code with src/time: it learns the zone from `Intl.DateTimeFormat.formatToParts`
 * minute by minute (which wall time each instant shows), then walks local minutes in order and resolves each
 * matching one by the rules of docs/time.md: one instant → that; two (fall-back) → the first, plus the second
 * for an interval expression; none (spring-forward gap) → the first instant after the gap.
 *
 * Cronos's forms are in both parts. Ranges that wrap (`50-10`, `22-2/3`) are drawn for minute and hour here,
 * their values defined as the steps from the start that stay within the start's cyclic distance to the end.
 * The day forms (`L`, `L-n`, `nW`, `LW`, `L-nW`, `dL`, `d#n`, wrapping weekday and month ranges) are checked
 * day by day over four years against definitions written here from the calendar alone (`Date.UTC`), with the
 * OR rule of classic cron.
 */
import { describe, expect, it } from "vitest";
import { nextOccurrence, parseCron } from "../../src/time";

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

/** Deterministic PRNG (mulberry32), so a failure names its seed and case. */
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

const partsFormatters = new Map<string, Intl.DateTimeFormat>();
/** The wall time an instant shows in a zone, as minutes since 1970-01-01 on the wall clock. */
function wallMinute(zone: string, instant: number): number {
  let f = partsFormatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-GB", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
    });
    partsFormatters.set(zone, f);
  }
  const p = Object.fromEntries(f.formatToParts(new Date(instant)).map((x) => [x.type, x.value]));
  return Date.UTC(+p.year!, +p.month! - 1, +p.day!, +p.hour! % 24, +p.minute!) / MIN;
}

/** Offset changes of a zone within [from, to), found by sampling every 6 hours and bisecting to the minute. */
function transitions(zone: string, from: number, to: number): number[] {
  const offset = (t: number) => wallMinute(zone, t) * MIN - t;
  const found: number[] = [];
  for (let t = from; t < to; t += 6 * HOUR) {
    if (offset(t) === offset(t + 6 * HOUR)) continue;
    let lo = t;
    let hi = t + 6 * HOUR;
    while (hi - lo > MIN) {
      const mid = lo + Math.floor((hi - lo) / 2 / MIN) * MIN;
      if (offset(mid) === offset(lo)) lo = mid;
      else hi = mid;
    }
    found.push(hi);
  }
  return found;
}

/** Every instant (on whole minutes) in [from, to) grouped by the wall minute it shows. */
type Window = { zone: string; from: number; to: number; byWall: Map<number, number[]>; walls: number[] };
function window(zone: string, from: number, to: number): Window {
  const byWall = new Map<number, number[]>();
  const walls: number[] = [];
  for (let t = from; t < to; t += MIN) {
    const w = wallMinute(zone, t);
    walls.push(w);
    const list = byWall.get(w);
    if (list) list.push(t);
    else byWall.set(w, [t]);
  }
  return { zone, from, to, byWall, walls };
}

/** A random expression built from parts whose value sets are known here (not taken from the engine). */
type Spec = { text: string; minutes: Set<number>; hours: Set<number>; weekdays: Set<number>; interval: boolean };

function field(rand: () => number, min: number, max: number): { text: string; values: Set<number> } {
  const span = max - min + 1;
  const pick = () => min + Math.floor(rand() * span);
  const range = (a: number, b: number, step = 1) => {
    const s = new Set<number>();
    for (let v = a; v <= b; v += step) s.add(v);
    return s;
  };
  const kind = Math.floor(rand() * 7);
  switch (kind) {
    case 0:
      return { text: "*", values: range(min, max) };
    case 1: {
      const step = 1 + Math.floor(rand() * Math.min(span - 1, 29));
      return { text: `*/${step}`, values: range(min, max, step) };
    }
    case 2: {
      const v = pick();
      return { text: String(v), values: new Set([v]) };
    }
    case 3: {
      const values = new Set<number>();
      const n = 2 + Math.floor(rand() * 3);
      for (let i = 0; i < n; i++) values.add(pick());
      return { text: [...values].join(","), values };
    }
    case 4: {
      const a = pick();
      const b = Math.min(max, a + Math.floor(rand() * 8));
      return { text: `${a}-${b}`, values: range(a, b) };
    }
    case 5: {
      const a = pick();
      const b = Math.min(max, a + 2 + Math.floor(rand() * 20));
      const step = 1 + Math.floor(rand() * 4);
      return { text: `${a}-${b}/${step}`, values: range(a, b, step) };
    }
    default: {
      // A range that wraps: from a start near the end of the field to an end near its start.
      const a = max - Math.floor(rand() * 6);
      const b = min + Math.floor(rand() * 6);
      const step = rand() < 0.5 ? 1 : 2 + Math.floor(rand() * 3);
      return { text: step === 1 ? `${a}-${b}` : `${a}-${b}/${step}`, values: wrapped(a, b, step, min, max) };
    }
  }
}

/** A wrapping range's values: the steps from `a` whose cyclic distance from `a` is within that of `b`. */
function wrapped(a: number, b: number, step: number, min: number, max: number): Set<number> {
  const span = max - min + 1;
  const reach = (((b - a) % span) + span) % span;
  const values = new Set<number>();
  for (let d = 0; d <= reach; d += step) values.add(min + ((a - min + d) % span));
  return values;
}

function randomSpec(rand: () => number): Spec {
  const minute = field(rand, 0, 59);
  const hour = field(rand, 0, 23);
  // Mostly every day; sometimes a weekday list of at least four days (so it fires within the window).
  let dow = "*";
  let weekdays = new Set([0, 1, 2, 3, 4, 5, 6]);
  if (rand() < 0.3) {
    weekdays = new Set([0, 1, 2, 3, 4, 5, 6].filter(() => rand() < 0.75));
    while (weekdays.size < 4) weekdays.add(Math.floor(rand() * 7));
    dow = [...weekdays].sort().join(",");
  }
  const interval = /[*\-/]/.test(minute.text) || /[*\-/]/.test(hour.text);
  return { text: `${minute.text} ${hour.text} * * ${dow}`, minutes: minute.values, hours: hour.values, weekdays, interval };
}

function matches(spec: Spec, wall: number): boolean {
  const d = new Date(wall * MIN);
  return spec.minutes.has(d.getUTCMinutes()) && spec.hours.has(d.getUTCHours()) && spec.weekdays.has(d.getUTCDay());
}

/** The reference: walk wall minutes in order from three hours before `after`'s wall time. */
function reference(spec: Spec, w: Window, after: number): number | null {
  const startWall = wallMinute(w.zone, after) - 180;
  const endWall = w.walls[w.walls.length - 1]! - 180;
  let best: number | null = null;
  for (let wall = startWall; wall < endWall; wall++) {
    if (!matches(spec, wall)) continue;
    const instants = w.byWall.get(wall);
    let fires: number[];
    if (!instants) {
      // A gap: the first instant whose wall time is past this one.
      const i = w.walls.findIndex((x) => x > wall);
      fires = [w.from + i * MIN];
    } else {
      fires = spec.interval ? instants : [instants[0]!];
    }
    for (const t of fires) if (t > after && (best === null || t < best)) best = t;
    // Once a wall time maps wholly past `after`, no later wall time maps before the best so far.
    if (best !== null && (instants ? instants[0]! : fires[0]!) > after) return best;
  }
  return best;
}

const ZONES = [
  "Europe/Berlin",
  "America/New_York",
  "Australia/Lord_Howe", // 30-minute shift
  "America/Havana", // midnight gap
  "America/St_Johns", // -03:30
  "Pacific/Chatham", // +12:45 / +13:45
  "America/Santiago", // transition at midnight
  "Antarctica/Troll", // a 2-hour shift
  "Europe/Dublin", // negative DST in tzdata
  "Africa/Casablanca", // Ramadan transitions
  "Asia/Kathmandu", // +05:45, no DST
  "UTC",
];

describe("next occurrence matches the brute-force reference", () => {
  const seed = 20261129;
  const rand = rng(seed);
  const from2026 = Date.UTC(2026, 0, 1);
  const to2027 = Date.UTC(2027, 11, 31);

  for (const zone of ZONES) {
    it(`agrees near every transition of 2026–2027 in ${zone}`, () => {
      let points = transitions(zone, from2026, to2027);
      if (points.length === 0) points = [Date.UTC(2026, 5, 15), Date.UTC(2027, 0, 10)];
      let checked = 0;
      for (const point of points) {
        const w = window(zone, point - 3 * DAY, point + 7 * DAY);
        for (let i = 0; i < 60; i++) {
          const spec = randomSpec(rand);
          const cron = parseCron(spec.text);
          expect(cron.ok, spec.text).toBe(true);
          if (!cron.ok) return;
          // From a random instant within ±36 h of the transition (often on a whole minute), then chained.
          let after = point - 36 * HOUR + Math.floor(rand() * 72 * HOUR);
          if (rand() < 0.5) after = Math.floor(after / MIN) * MIN;
          for (let step = 0; step < 4; step++) {
            const expected = reference(spec, w, after);
            if (expected === null) break;
            const actual = nextOccurrence(cron.value, zone, after);
            const label = `${spec.text} in ${zone} after ${new Date(after).toISOString()} (seed ${seed})`;
            expect(actual && new Date(actual.at).toISOString(), label).toBe(new Date(expected).toISOString());
            checked++;
            after = expected;
          }
        }
      }
      expect(checked).toBeGreaterThan(points.length * 60);
    });
  }
});

// ---- the day forms, day by day

const MONTHS = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"];
const DAYS = ["SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"];
const lastDay = (y: number, m: number): number => new Date(Date.UTC(y, m, 0)).getUTCDate();
const weekdayOf = (y: number, m: number, d: number): number => (Math.floor(Date.UTC(y, m - 1, d) / DAY) + 4) % 7;

const nearest = new Map<string, number | null>();
/** The weekday (Monday–Friday) of the month nearest day `target`, or null when the month has no such day. */
function nearestWorkday(y: number, m: number, target: number): number | null {
  const key = `${y}-${m}-${target}`;
  if (!nearest.has(key)) nearest.set(key, nearestUncached(y, m, target));
  return nearest.get(key)!;
}

function nearestUncached(y: number, m: number, target: number): number | null {
  if (target < 1 || target > lastDay(y, m)) return null;
  let best: number | null = null;
  for (let d = 1; d <= lastDay(y, m); d++) {
    const w = weekdayOf(y, m, d);
    if (w !== 0 && w !== 6 && (best === null || Math.abs(d - target) < Math.abs(best - target))) best = d;
  }
  return best;
}

type DaySpec = { text: string; restricted: boolean; matches: (y: number, m: number, d: number) => boolean };

function monthDayForm(rand: () => number): DaySpec {
  const n = Math.floor(rand() * 31);
  const kind = Math.floor(rand() * 7);
  const restricted = { restricted: true };
  switch (kind) {
    case 0:
      return { text: "*", restricted: false, matches: () => true };
    case 1:
      return { text: rand() < 0.5 ? "L" : "l", ...restricted, matches: (y, m, d) => d === lastDay(y, m) };
    case 2:
      return { text: `L-${n}`, ...restricted, matches: (y, m, d) => d === lastDay(y, m) - n };
    case 3:
      return { text: `${n + 1}W`, ...restricted, matches: (y, m, d) => nearestWorkday(y, m, n + 1) === d };
    case 4:
      return { text: rand() < 0.5 ? "LW" : `L-${n % 8}W`, ...restricted, matches: () => false };
    case 5: {
      const a = 20 + Math.floor(rand() * 12);
      const b = 1 + Math.floor(rand() * 10);
      const step = 1 + Math.floor(rand() * 6);
      const values = wrapped(a, b, step, 1, 31);
      return { text: `${a}-${b}/${step}`, ...restricted, matches: (_y, _m, d) => values.has(d) };
    }
    default:
      return { text: "?", restricted: false, matches: () => true };
  }
}

function weekdayForm(rand: () => number): DaySpec {
  const w = Math.floor(rand() * 7);
  const name = rand() < 0.5 ? DAYS[w]! : String(w === 0 && rand() < 0.5 ? 7 : w);
  const kind = Math.floor(rand() * 5);
  switch (kind) {
    case 0:
      return { text: "*", restricted: false, matches: () => true };
    case 1:
      return { text: `${name}L`, restricted: true, matches: (y, m, d) => weekdayOf(y, m, d) === w && d + 7 > lastDay(y, m) };
    case 2: {
      const n = 1 + Math.floor(rand() * 5);
      return { text: `${name}#${n}`, restricted: true, matches: (y, m, d) => weekdayOf(y, m, d) === w && Math.floor((d - 1) / 7) + 1 === n };
    }
    case 3: {
      // A wrapping weekday range such as FRI-MON (7 days a week, Sunday 0).
      const a = 3 + Math.floor(rand() * 4);
      const b = Math.floor(rand() * 3);
      const values = wrapped(a, b, 1, 0, 6);
      return { text: `${DAYS[a]}-${DAYS[b]}`, restricted: true, matches: (y, m, d) => values.has(weekdayOf(y, m, d)) };
    }
    default:
      return { text: "?", restricted: false, matches: () => true };
  }
}

describe("day forms match their calendar definitions (four years from 2026, with cron's OR rule)", () => {
  const seed = 20261208;
  const rand = rng(seed);

  it("agrees on 300 random expressions, 12 chained steps each", () => {
    let checked = 0;
    for (let i = 0; i < 300; i++) {
      let dom = monthDayForm(rand);
      // LW and L-nW: the weekday nearest the last day, or n days before it.
      if (/^L(-\d+)?W$/i.test(dom.text)) {
        const offset = dom.text.length > 2 ? Number(/\d+/.exec(dom.text)![0]) : 0;
        dom = { ...dom, matches: (y, m, d) => nearestWorkday(y, m, lastDay(y, m) - offset) === d };
      }
      const dow = weekdayForm(rand);
      const a = Math.floor(rand() * 12);
      const b = rand() < 0.5 ? a : (a + 2 + Math.floor(rand() * 6)) % 12;
      const months = b === a ? new Set([...Array(12).keys()].map((k) => k + 1)) : wrapped(a + 1, b + 1, 1, 1, 12);
      const monthText = b === a ? "*" : `${MONTHS[a]}-${MONTHS[b]}`;
      const text = `0 12 ${dom.text} ${monthText} ${dow.text}`;
      const cron = parseCron(text);
      expect(cron.ok, text).toBe(true);
      if (!cron.ok) return;
      const firing: number[] = [];
      for (let y = 2026; y < 2030; y++) {
        for (let m = 1; m <= 12; m++) {
          if (!months.has(m)) continue;
          for (let d = 1; d <= lastDay(y, m); d++) {
            const byDom = dom.matches(y, m, d);
            const byDow = dow.matches(y, m, d);
            if (dom.restricted && dow.restricted ? byDom || byDow : byDom && byDow) firing.push(Date.UTC(y, m - 1, d, 12));
          }
        }
      }
      let after = Date.UTC(2026, 0, 1) + Math.floor(rand() * 365) * DAY;
      for (let step = 0; step < 12; step++) {
        const expected = firing.find((t) => t > after);
        if (expected === undefined || expected > Date.UTC(2029, 6, 1)) break;
        const actual = nextOccurrence(cron.value, "UTC", after);
        expect(actual && new Date(actual.at).toISOString(), `${text} after ${new Date(after).toISOString()} (seed ${seed})`).toBe(
          new Date(expected).toISOString(),
        );
        checked++;
        after = expected;
      }
    }
    expect(checked).toBeGreaterThan(2500);
  });
});
