/**
 * @module The simplest form that says a plan (`every.ts`; issue 24 item 4): five-field cron when cron can, in
 * Cronos's dialect where it needs one (`0 17 * * 5L` the last friday, `0 9 L * *` the last day, `0 9 * * 1#1`
 * the first monday, `LW` the last working day, `1W` the first), else an RFC 5545 rule and its local start
 * (DESIGN §4 Recurrence rules): `FREQ=WEEKLY;INTERVAL=2;BYDAY=TU` from the next Tuesday at 10:00,
 * `FREQ=MINUTELY;INTERVAL=90`. A start said (starting next monday) needs a rule, as cron has none. An end is
 * `until` (an instant; a date alone means the end of that day there) or `runsLeft`. Pure.
 */
import { DAY_MS, HOUR_MS, MINUTE_MS, civilFields, daysInMonth, localMs } from "./civil";
import type { Clock, Plan, Position } from "./every";
import type { Unit } from "./lang";
import { resolveLocal, toLocal } from "./zone";

/** A schedule as jobs hold it (DESIGN §3): one time, a cron expression, or a rule with its local start. */
export type Schedule =
  | { at: string }
  | { cron: string; until?: string; runsLeft?: number }
  | { rrule: string; start: string; until?: string; runsLeft?: number };

/** Why a plan makes no schedule. */
export type FormProblem =
  /** Times whose minutes differ (9:15 and 18:30): neither cron nor a rule holds them in one schedule. */
  | { kind: "minutes"; times: readonly Clock[] }
  /** A count that the times or days given do not match (twice a day at 9). */
  | { kind: "count"; count: number; unit: Unit }
  /** A number of runs outside 1–1000. */
  | { kind: "runs"; runs: number }
  /** An end that is not after the first run (until yesterday). */
  | { kind: "until"; until: number }
  /** Parts that do not go together (every day on the 15th), or a date that never comes (the 31st of February). */
  | { kind: "conflict" };

export type FormResult = { ok: true; value: Schedule } | { ok: false; problem: FormProblem };

export const MAX_RUNS = 1000;
const SEARCH_DAYS = 1830;
const CODES = ["SU", "MO", "TU", "WE", "TH", "FR", "SA"] as const;
const WORKDAYS: ReadonlySet<number> = new Set([1, 2, 3, 4, 5]);
const FREQ: Record<Unit, string> = { minute: "MINUTELY", hour: "HOURLY", day: "DAILY", week: "WEEKLY", month: "MONTHLY", year: "YEARLY" };

/** Weekday numbers as cron writes them: runs of three or more as ranges (`1-5`), the rest as a list. */
export function dayField(days: ReadonlySet<number>): string {
  const sorted = [...days].sort((a, b) => a - b);
  if (sorted.length === 7) return "*";
  const parts: string[] = [];
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++;
    if (j - i >= 2) parts.push(`${sorted[i]}-${sorted[j]}`);
    else for (let k = i; k <= j; k++) parts.push(String(sorted[k]));
    i = j + 1;
  }
  return parts.join(",");
}

/** `yyyy-MM-ddTHH:mm` of a local time: a rule's start. */
export function localText(local: number): string {
  const f = civilFields(local);
  const p = (n: number) => String(n).padStart(2, "0");
  return `${f.year}-${p(f.month)}-${p(f.day)}T${p(f.hour)}:${p(f.minute)}`;
}

/** The instant of a wall time as an offset-less `at` takes it: a gap moves forward, an overlap takes the first. */
function instantOf(zone: string, local: number): number {
  const r = resolveLocal(zone, local);
  return r.kind === "normal" ? r.instant : r.kind === "ambiguous" ? r.first : r.shifted;
}

/** What the plan means once its unit and defaults are settled. */
type Settled = {
  unit: Unit;
  interval: number;
  days: ReadonlySet<number> | null;
  monthDays: readonly number[] | null;
  positions: readonly Position[] | null;
  month: number | null;
  times: readonly Clock[];
};

function settle(plan: Plan, today: ReturnType<typeof civilFields>): Settled | FormProblem {
  const conflict: FormProblem = { kind: "conflict" };
  const unit: Unit = plan.unit ?? (plan.month !== null ? "year" : plan.monthDays || plan.positions ? "month" : plan.days ? "week" : "day");
  const dated = plan.monthDays !== null || plan.positions !== null;
  if (plan.month !== null && unit !== "year") return conflict;
  if (dated && unit !== "month" && !(unit === "year" && plan.month !== null)) return conflict;
  if ((plan.days || plan.except) && (unit === "month" || unit === "year")) return conflict;
  let days = plan.days ? new Set(plan.days) : null;
  if (plan.except) {
    days ??= new Set([0, 1, 2, 3, 4, 5, 6]);
    for (const d of plan.except) days.delete(d);
    if (days.size === 0) return conflict;
  }
  if (days?.size === 7 && unit !== "week") days = null;
  const times = [...plan.times].sort((a, b) => a.hour * 60 + a.minute - (b.hour * 60 + b.minute)).filter((t, i, all) => i === 0 || t.hour !== all[i - 1]!.hour || t.minute !== all[i - 1]!.minute);
  if (times.some((t) => t.minute !== times[0]!.minute)) return { kind: "minutes", times };
  if (plan.count !== null && plan.count > 1) {
    const given = unit === "day" ? times.length : unit === "week" ? (days?.size ?? 0) : 0;
    if (given !== plan.count) return { kind: "count", count: plan.count, unit };
  }
  const settled: Settled = { unit, interval: plan.interval, days, monthDays: plan.monthDays, positions: plan.positions, month: plan.month, times };
  // What a unit alone leaves open comes from today: every week = on today's weekday, every month = on today's date.
  if (unit === "week" && !days) settled.days = new Set([today.weekday]);
  if (unit === "month" && !dated) settled.monthDays = [today.day];
  if (unit === "year" && plan.month === null) Object.assign(settled, { month: today.month, monthDays: [today.day] });
  if (settled.positions && settled.positions.some((p) => p.day === "workday") && settled.positions.some((p) => p.day !== "workday")) return conflict;
  return settled;
}

/** The cron expression that says `s`, or null when cron cannot (or a start was said: cron has none). */
function cronOf(s: Settled): string | null {
  const dow = s.days ? dayField(s.days) : "*";
  const minute = s.times[0]?.minute ?? 0;
  const hours = s.times.length > 0 ? s.times.map((t) => t.hour).join(",") : "9";
  const n = s.interval;
  switch (s.unit) {
    case "minute":
      if (s.times.length > 0) return null;
      if (n < 60 && 60 % n === 0) return `${n === 1 ? "*" : `*/${n}`} * * * ${dow}`;
      return n % 60 === 0 && 24 % (n / 60) === 0 ? `0 ${n === 60 ? "*" : `*/${n / 60}`} * * ${dow}` : null;
    case "hour":
      return s.times.length === 0 && 24 % n === 0 ? `0 ${n === 1 ? "*" : `*/${n}`} * * ${dow}` : null;
    case "day":
    case "week":
      return n === 1 ? `${minute} ${hours} * * ${dow}` : null;
    case "month": {
      if (n !== 1) return null;
      const at = `${minute} ${hours}`;
      if (s.monthDays) {
        if (s.monthDays.length === 1 && s.monthDays[0] === -1) return `${at} L * *`;
        return s.monthDays.every((d) => d > 0) ? `${at} ${[...s.monthDays].sort((a, b) => a - b).join(",")} * *` : null;
      }
      const [p, more] = s.positions ?? [];
      if (!p || more) return null;
      if (p.day === "workday") return p.n === 1 ? `${at} 1W * *` : p.n === -1 ? `${at} LW * *` : null;
      return p.n === -1 ? `${at} * * ${p.day}L` : `${at} * * ${p.day}#${p.n}`;
    }
    case "year":
      return n === 1 && s.monthDays?.length === 1 && s.monthDays[0]! > 0 ? `${minute} ${hours} ${s.monthDays[0]} ${s.month} *` : null;
  }
}

/** The RRULE value that says `s` (no COUNT or UNTIL: those are `runsLeft` and `until`). */
function ruleOf(s: Settled): string {
  const parts = [`FREQ=${FREQ[s.unit]}`];
  if (s.interval > 1) parts.push(`INTERVAL=${s.interval}`);
  if (s.month !== null) parts.push(`BYMONTH=${s.month}`);
  if (s.monthDays) parts.push(`BYMONTHDAY=${s.monthDays.join(",")}`);
  if (s.positions?.[0]?.day === "workday") {
    parts.push("BYDAY=MO,TU,WE,TH,FR", `BYSETPOS=${s.positions.map((p) => p.n).join(",")}`);
  } else if (s.positions) {
    parts.push(`BYDAY=${s.positions.map((p) => `${p.n}${CODES[p.day as number]}`).join(",")}`);
  } else if (s.days) {
    parts.push(`BYDAY=${[...s.days].sort((a, b) => ((a + 6) % 7) - ((b + 6) % 7)).map((d) => CODES[d]).join(",")}`);
  }
  if (s.times.length > 1 && s.unit !== "minute" && s.unit !== "hour") parts.push(`BYHOUR=${s.times.map((t) => t.hour).join(",")}`, `BYMINUTE=${s.times[0]!.minute}`);
  return parts.join(";");
}

/** Whether a local day (its midnight) is one the settled plan runs on, ignoring the interval. */
function runsOn(s: Settled, day: number): boolean {
  const f = civilFields(day);
  const last = daysInMonth(f.year, f.month);
  if (s.month !== null && f.month !== s.month) return false;
  if (s.days && !s.days.has(f.weekday)) return false;
  if (s.monthDays && !s.monthDays.some((d) => (d === -1 ? f.day === last : d === f.day))) return false;
  if (s.positions) {
    return s.positions.some((p) => {
      if (p.day !== "workday") return f.weekday === p.day && (p.n === -1 ? f.day + 7 > last : Math.ceil(f.day / 7) === p.n);
      if (!WORKDAYS.has(f.weekday)) return false;
      const start = localMs(f.year, f.month, 1);
      let before = 0;
      let after = 0;
      for (let d = 1; d <= last; d++) {
        if (!WORKDAYS.has(civilFields(start + (d - 1) * DAY_MS).weekday)) continue;
        if (d < f.day) before++;
        if (d > f.day) after++;
      }
      return p.n === -1 ? after === 0 : before + 1 === p.n;
    });
  }
  return true;
}

/**
 * The rule's start: its first instance after now, or at or after the start said. Minutes and hours count from
 * the start said, the first time given, or else from this minute (this hour).
 */
function startOf(s: Settled, from: number, inclusive: boolean, nowLocal: number, said: boolean): number | null {
  const after = (local: number) => (inclusive ? local >= from : local > from) && local > nowLocal;
  if (s.unit === "minute" || s.unit === "hour") {
    if (said) return from;
    const time = s.times[0];
    if (time) {
      const today = Math.floor(nowLocal / DAY_MS) * DAY_MS + time.hour * HOUR_MS + time.minute * MINUTE_MS;
      return today > nowLocal ? today : today + DAY_MS;
    }
    return Math.floor(nowLocal / (s.unit === "minute" ? MINUTE_MS : HOUR_MS)) * (s.unit === "minute" ? MINUTE_MS : HOUR_MS);
  }
  const times = s.times.length > 0 ? s.times : [{ hour: 9, minute: 0 }];
  const first = Math.floor(from / DAY_MS) * DAY_MS;
  for (let k = 0; k <= SEARCH_DAYS; k++) {
    const day = first + k * DAY_MS;
    if (!runsOn(s, day)) continue;
    for (const t of times) {
      const local = day + t.hour * HOUR_MS + t.minute * MINUTE_MS;
      if (after(local)) return local;
    }
  }
  return null;
}

/** The simplest schedule that says `plan` in `zone`, from `now`. */
export function scheduleOf(plan: Plan, zone: string, now: number): FormResult {
  const nowLocal = toLocal(zone, now);
  const settled = settle(plan, civilFields(nowLocal));
  if ("kind" in settled) return { ok: false, problem: settled };
  if (plan.runs !== null && (plan.runs < 1 || plan.runs > MAX_RUNS)) return { ok: false, problem: { kind: "runs", runs: plan.runs } };
  // A start said with a time of day and no time given: that time is the schedule's (from 1 jan at 8).
  if (plan.start && !plan.start.dateOnly && settled.times.length === 0 && settled.unit !== "minute" && settled.unit !== "hour") {
    const f = civilFields(plan.start.local);
    settled.times = [{ hour: f.hour, minute: f.minute }];
  }
  let schedule: Schedule;
  let first: number;
  const cron = plan.start ? null : cronOf(settled);
  if (cron !== null) {
    schedule = { cron };
    first = nowLocal;
  } else {
    const said = plan.start !== null;
    const from = plan.start ? (plan.start.dateOnly && (settled.unit === "minute" || settled.unit === "hour") ? plan.start.local + 9 * HOUR_MS : plan.start.local) : nowLocal;
    const start = startOf(settled, from, said, nowLocal, said && (settled.unit === "minute" || settled.unit === "hour"));
    if (start === null) return { ok: false, problem: { kind: "conflict" } };
    schedule = { rrule: ruleOf(settled), start: localText(start) };
    first = start;
  }
  if (plan.until) {
    const local = plan.until.dateOnly ? plan.until.local + DAY_MS - MINUTE_MS : plan.until.local;
    const until = instantOf(zone, local);
    if (until <= now || local < first) return { ok: false, problem: { kind: "until", until } };
    schedule = { ...schedule, until: new Date(until).toISOString() };
  }
  if (plan.runs !== null) schedule = { ...schedule, runsLeft: plan.runs };
  return { ok: true, value: schedule };
}
