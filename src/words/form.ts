/**
 * @module The simplest form that says a plan (`phrase/`; issue 24 item 4): five-field cron when cron can, in
 * Cronos's dialect where it needs one (`0 17 * * 5L` the last friday, `0 9 L * *` the last day, `0 9 * * 1#1`
 * the first monday, `LW` the last working day, `1W` the first), else an RFC 5545 rule and its local start
 * (docs/time.md#rrule-and-start-recurrence-rules): `FREQ=WEEKLY;INTERVAL=2;BYDAY=TU` from the next Tuesday at 10:00,
 * `FREQ=MINUTELY;INTERVAL=90`. A start said (starting next monday) needs a rule, as cron has none. A window of
 * hours (every 2 hours from 9 to 17) runs from its first hour up to its last inclusive, each day: cron when its
 * times are every listed minute of a step of hours (`0 9-17/2 * * *`), else a daily rule of those hours and
 * minutes, with BYSETPOS keeping the ones that are runs (every 30 minutes from 9 to 17 ends at 17:00, not 17:30).
 * The plan becomes one schedule value (`time/schedule.ts`), the cron or rule read once here, with its ends:
 * `until` (a local date-time; a date alone means the end of that day, a month alone its beginning) or `runsLeft`. "For 5 days" is
 * `runsLeft` when the schedule runs once in each of those units (every day at 9 for 5 days: 5 runs), else `until`,
 * the last minute before that many units have passed since the first run (every 2 hours for 1 day: 12 runs). Pure.
 */
import { civilFields, DAY_MS, daysInMonth, HOUR_MS, localMs, MINUTE_MS } from "../time/civil";
import { parseCron } from "../time/cron";
import { nextOccurrence } from "../time/next";
import { parseRule } from "../time/rule";
import type { Ends, Schedule, Timing } from "../time/schedule";
import { localUntil, untilInstant, untilLocal } from "../time/until";
import { toLocal } from "../time/zone";
import type { Unit } from "./lang";
import type { Clock, Plan, Position, SaidDate } from "./phrase";

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
  | { kind: "conflict" }
  /** A window whose runs no one schedule holds (every minute from 9 to 17: 481 runs a day, not a whole hour's minutes). */
  | { kind: "window"; window: { from: Clock; to: Clock } };

export type FormResult = { ok: true; value: Timing } | { ok: false; problem: FormProblem };

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

/** What the plan means once its unit and defaults are settled. */
type Settled = {
  unit: Unit;
  interval: number;
  days: ReadonlySet<number> | null;
  monthDays: readonly number[] | null;
  positions: readonly Position[] | null;
  month: number | null;
  times: readonly Clock[];
  window: { from: Clock; to: Clock } | null;
};

function settle(plan: Plan, today: ReturnType<typeof civilFields>, from: ReturnType<typeof civilFields>): Settled | FormProblem {
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
  const times = [...plan.times]
    .sort((a, b) => a.hour * 60 + a.minute - (b.hour * 60 + b.minute))
    .filter((t, i, all) => i === 0 || t.hour !== all[i - 1]!.hour || t.minute !== all[i - 1]!.minute);
  if (times.some((t) => t.minute !== times[0]!.minute)) return { kind: "minutes", times };
  const short = unit === "minute" || unit === "hour";
  // A part of the day is a time of day; a window bounds an interval of minutes or hours, on every day it runs.
  if (plan.part !== null && (short || plan.window)) return conflict;
  if (
    plan.window &&
    (!short || times.length > 0 || (days && plan.window.to.hour * 60 + plan.window.to.minute < plan.window.from.hour * 60 + plan.window.from.minute))
  )
    return conflict;
  if (plan.span && (plan.until || plan.runs !== null)) return conflict;
  if (plan.part !== null && times.length === 0) times.push({ hour: plan.part, minute: 0 });
  if (plan.count !== null && plan.count > 1) {
    const given = unit === "day" ? times.length : unit === "week" ? (days?.size ?? 0) : 0;
    if (given !== plan.count) return { kind: "count", count: plan.count, unit };
  }
  const settled: Settled = {
    unit,
    interval: plan.interval,
    days,
    monthDays: plan.monthDays,
    positions: plan.positions,
    month: plan.month,
    times,
    window: plan.window,
  };
  // What a unit alone leaves open comes from today: every week = on today's weekday, every month = on today's date;
  // a month's or a year's date from the start said, if one is ("every 3 months starting 10 April": on the 10th).
  if (unit === "week" && !days) settled.days = new Set([today.weekday]);
  if (unit === "month" && !dated) settled.monthDays = [from.day];
  if (unit === "year" && plan.month === null) Object.assign(settled, { month: from.month, monthDays: [from.day] });
  if (settled.positions?.some((p) => p.day === "workday") && settled.positions.some((p) => p.day !== "workday")) return conflict;
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
      // cron counts from the end only to the last one; the second-to-last is a rule's (BYDAY=-2FR).
      if (p.n < -1) return null;
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
    parts.push(
      `BYDAY=${[...s.days]
        .sort((a, b) => ((a + 6) % 7) - ((b + 6) % 7))
        .map((d) => CODES[d])
        .join(",")}`,
    );
  }
  if (s.times.length > 1 && s.unit !== "minute" && s.unit !== "hour")
    parts.push(`BYHOUR=${s.times.map((t) => t.hour).join(",")}`, `BYMINUTE=${s.times[0]!.minute}`);
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
      if (p.day !== "workday") return f.weekday === p.day && (p.n < 0 ? Math.ceil((last - f.day + 1) / 7) === -p.n : Math.ceil(f.day / 7) === p.n);
      if (!WORKDAYS.has(f.weekday)) return false;
      const start = localMs(f.year, f.month, 1);
      let before = 0;
      let after = 0;
      for (let d = 1; d <= last; d++) {
        if (!WORKDAYS.has(civilFields(start + (d - 1) * DAY_MS).weekday)) continue;
        if (d < f.day) before++;
        if (d > f.day) after++;
      }
      return p.n < 0 ? after + 1 === -p.n : before + 1 === p.n;
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

/** The runs of a window each day, as minutes of the day in run order (past midnight for one that wraps: 22 to 2). */
function windowRuns(s: Settled): number[] {
  const { from, to } = s.window!;
  const step = s.interval * (s.unit === "hour" ? 60 : 1);
  const start = from.hour * 60 + from.minute;
  let end = to.hour * 60 + to.minute;
  if (end < start) end += 1440;
  const runs: number[] = [];
  for (let m = start; m <= end; m += step) runs.push(m % 1440);
  return runs;
}

/** The cron or daily rule that runs a window (see the module header), with its local start for a rule. */
function windowForm(
  s: Settled,
  from: number,
  inclusive: boolean,
  nowLocal: number,
  cronAllowed: boolean,
): { cron: string } | { rrule: string; start: number } | FormProblem | null {
  const runs = windowRuns(s);
  const hours = [...new Set(runs.map((m) => Math.floor(m / 60)))];
  const minutes = [...new Set(runs.map((m) => m % 60))].sort((a, b) => a - b);
  const whole = hours.length * minutes.length === runs.length;
  const dow = s.days ? dayField(s.days) : "*";
  const steps = hours.slice(1).map((h, i) => (h - hours[i]! + 24) % 24);
  if (cronAllowed && whole && steps.every((d) => d === steps[0])) {
    const k = minutes[1] ?? 60;
    const everyK = minutes.length > 1 && 60 % k === 0 && minutes.length === 60 / k && minutes.every((m, i) => m === i * k);
    const minute = everyK ? (k === 1 ? "*" : `*/${k}`) : minutes.join(",");
    const [first, last] = [hours[0]!, hours[hours.length - 1]!];
    const step = steps[0] ?? 1;
    const hour = hours.length === 1 ? String(first) : hours.length === 24 ? "*" : step === 1 ? `${first}-${last}` : `${first}-${last}/${step}`;
    return { cron: `${minute} ${hour} * * ${dow}` };
  }
  const byHour = [...hours].sort((a, b) => a - b);
  // The day's candidates are every BYHOUR × BYMINUTE time, in order; BYSETPOS keeps the runs among them.
  const candidates = byHour.flatMap((h) => minutes.map((m) => h * 60 + m));
  if (!whole && candidates.length > 366) return { kind: "window", window: s.window! };
  const kept = new Set(runs);
  const parts = ["FREQ=DAILY"];
  if (s.days)
    parts.push(
      `BYDAY=${[...s.days]
        .sort((a, b) => ((a + 6) % 7) - ((b + 6) % 7))
        .map((d) => CODES[d])
        .join(",")}`,
    );
  parts.push(`BYHOUR=${byHour.join(",")}`, `BYMINUTE=${minutes.join(",")}`);
  if (!whole) parts.push(`BYSETPOS=${candidates.flatMap((m, i) => (kept.has(m) ? [i + 1] : [])).join(",")}`);
  const daily: Settled = {
    ...s,
    unit: "day",
    interval: 1,
    times: [...runs].sort((a, b) => a - b).map((m) => ({ hour: Math.floor(m / 60), minute: m % 60 })),
    window: null,
  };
  const start = startOf(daily, from, inclusive, nowLocal, false);
  return start === null ? null : { rrule: parts.join(";"), start };
}

/** A local time `n` units later: fixed lengths for minutes to weeks, the calendar for months and years (day clamped). */
function later(local: number, n: number, unit: Unit): number {
  const fixed = { minute: MINUTE_MS, hour: HOUR_MS, day: DAY_MS, week: 7 * DAY_MS } as Partial<Record<Unit, number>>;
  if (fixed[unit] !== undefined) return local + n * fixed[unit]!;
  const f = civilFields(local);
  const months = f.month - 1 + n * (unit === "year" ? 12 : 1);
  const [year, month] = [f.year + Math.floor(months / 12), (months % 12) + 1];
  return localMs(year, month, Math.min(f.day, daysInMonth(year, month)), f.hour, f.minute);
}

/** Whether `s` runs once in each of its unit (every day at 9, every monday, the 15th), so that N units are N runs. */
function oncePer(s: Settled): boolean {
  if (s.interval !== 1 || s.window || s.times.length > 1) return false;
  if (s.unit === "day") return !s.days;
  if (s.unit === "week") return s.days?.size === 1;
  if (s.unit === "month") return (s.monthDays?.length ?? 0) + (s.positions?.length ?? 0) === 1;
  return true;
}

/** The cron this module wrote, read: a bug when it does not read, not a sentence for the user. */
function cronValue(text: string): Schedule {
  const parsed = parseCron(text);
  if (!parsed.ok) throw new Error(`the form of a plan is no cron: "${text}": ${parsed.error}`);
  return { type: "cron", cron: parsed.value };
}

/** The rule this module wrote and its local start, read. */
function ruleValue(rrule: string, start: number): Schedule {
  const parsed = parseRule(rrule);
  if (!parsed.ok) throw new Error(`the form of a plan is no rule: "${rrule}": ${parsed.error}`);
  return { type: "rule", rule: { rule: parsed.value, start } };
}

/** The local minute a said `until` stands for: a month alone the minute before it begins, a date alone its last minute. */
export function untilOfSaid(date: SaidDate): string {
  return localUntil(date.month ? date.local - MINUTE_MS : date.dateOnly ? date.local + DAY_MS - MINUTE_MS : date.local);
}

/** The simplest schedule that says `plan` in `zone`, from `now`, with its ends. */
export function scheduleOf(plan: Plan, zone: string, now: number): FormResult {
  const nowLocal = toLocal(zone, now);
  const settled = settle(plan, civilFields(nowLocal), civilFields(plan.start?.local ?? nowLocal));
  if ("kind" in settled) return { ok: false, problem: settled };
  if (plan.runs !== null && (plan.runs < 1 || plan.runs > MAX_RUNS)) return { ok: false, problem: { kind: "runs", runs: plan.runs } };
  // A start said with a time of day and no time given: that time is the schedule's (from 1 jan at 8).
  if (plan.start && !plan.start.dateOnly && settled.times.length === 0 && settled.unit !== "minute" && settled.unit !== "hour") {
    const f = civilFields(plan.start.local);
    settled.times = [{ hour: f.hour, minute: f.minute }];
  }
  let schedule: Schedule;
  let first: number;
  const cron = plan.start || settled.window ? null : cronOf(settled);
  if (settled.window) {
    const from = plan.start ? plan.start.local : nowLocal;
    const form = windowForm(settled, from, plan.start !== null, nowLocal, plan.start === null);
    if (form === null) return { ok: false, problem: { kind: "conflict" } };
    if ("kind" in form) return { ok: false, problem: form };
    if ("cron" in form) [schedule, first] = [cronValue(form.cron), nowLocal];
    else [schedule, first] = [ruleValue(form.rrule, form.start), form.start];
  } else if (cron !== null) {
    schedule = cronValue(cron);
    first = nowLocal;
  } else {
    const said = plan.start !== null;
    const from = plan.start
      ? plan.start.dateOnly && (settled.unit === "minute" || settled.unit === "hour")
        ? plan.start.local + 9 * HOUR_MS
        : plan.start.local
      : nowLocal;
    const start = startOf(settled, from, said, nowLocal, said && (settled.unit === "minute" || settled.unit === "hour"));
    if (start === null) return { ok: false, problem: { kind: "conflict" } };
    schedule = ruleValue(ruleOf(settled), start);
    first = start;
  }
  const ends: Ends = {};
  if (plan.until) {
    const local = untilOfSaid(plan.until);
    const until = untilInstant(local, zone);
    if (until <= now || untilLocal(local) < first) return { ok: false, problem: { kind: "until", until } };
    ends.until = local;
  }
  if (plan.runs !== null) ends.runsLeft = plan.runs;
  if (plan.span) {
    const { n, unit } = plan.span;
    if (unit === settled.unit && oncePer(settled)) {
      if (n > MAX_RUNS) return { ok: false, problem: { kind: "runs", runs: n } };
      ends.runsLeft = n;
    } else {
      // From the first run: a cron's is its next occurrence (`first` stands for now there).
      const next = schedule.type === "cron" ? nextOccurrence(schedule.cron, zone, now) : null;
      const start = next ? toLocal(zone, next.at) : first;
      ends.until = localUntil(later(start, n, unit) - MINUTE_MS);
    }
  }
  return { ok: true, value: { schedule, ends } };
}
