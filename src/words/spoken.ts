/**
 * @module What a schedule says (docs/time.md#descriptions): a cron or a rule taken back to the phrase reader's
 * terms (`speech/types.ts`), so that a description is a phrase the reader reads back as the same schedule. The
 * forms the reader writes (`form.ts`) all come back; another form (a cron or rule typed or imported) only when the
 * reader would write the same schedule of its words, which is checked here by writing it (`scheduleOf`): the same
 * cron fields, or the same next runs and ends. Anything else is null, and is shown as it was written. Pure.
 */
import { civilFields, DAY_MS, localMs, MINUTE_MS } from "../time/civil";
import type { CronSchedule } from "../time/cron";
import { nextOccurrence } from "../time/next";
import type { Rule } from "../time/rule";
import { nextRuleOccurrence } from "../time/rules";
import type { JobEnds, Schedule } from "../time/schedule";
import { untilLocal } from "../time/until";
import { toLocal } from "../time/zone";
import { localText, scheduleOf } from "./form";
import type { Unit } from "./lang";
import type { Clock, Plan, Position, SaidDate } from "./phrase";
import type { Said, SaidAt } from "./speech/types";

/** How many next runs must agree for a schedule written back to count as the same. */
const SAME_RUNS = 8;
const FREQ_UNIT: Record<Rule["freq"], Unit> = { MINUTELY: "minute", HOURLY: "hour", DAILY: "day", WEEKLY: "week", MONTHLY: "month", YEARLY: "year" };

type Shape = Omit<Said, "start" | "until" | "runs">;

const indices = (flags: readonly boolean[], from: number): number[] => flags.flatMap((on, i) => (i >= from && on ? [i] : []));
const clock = (minuteOfDay: number): Clock => ({ hour: Math.floor(minuteOfDay / 60), minute: minuteOfDay % 60 });

/**
 * Runs at these minutes of the day (sorted). `interval`: as a unit and interval over the whole day from midnight
 * (every 15 minutes, every 2 hours), or a window between two times (every 30 minutes from 09:00 to 17:30);
 * otherwise as times of day, which share one minute.
 */
function daily(runs: readonly number[], interval: boolean): Pick<Shape, "unit" | "interval" | "window" | "times"> | null {
  if (interval) {
    const steps = new Set(runs.slice(1).map((m, i) => m - runs[i]!));
    if (steps.size !== 1) return null;
    const step = [...steps][0]!;
    const unit: Unit = step % 60 === 0 ? "hour" : "minute";
    const whole = runs[0] === 0 && runs.length * step === 1440;
    return { unit, interval: unit === "hour" ? step / 60 : step, window: whole ? null : { from: clock(runs[0]!), to: clock(runs.at(-1)!) }, times: [] };
  }
  if (runs.some((m) => m % 60 !== runs[0]! % 60)) return null;
  return { unit: "day", interval: 1, window: null, times: runs.map(clock) };
}

/** A cron expression in the reader's terms, or null when it says what no phrase does (steps over days, both day fields). */
function fromCron(c: CronSchedule): Shape | null {
  const months = indices(c.months, 1);
  const runs = c.hours.flatMap((h) => c.minutes.map((m) => h * 60 + m)).sort((a, b) => a - b);
  const base = { days: null, monthDays: null, positions: null, month: null };
  if (!c.domStar && !c.dowStar) return null;
  const dows = indices(c.daysOfWeek, 0);
  let shape: Shape;
  if (c.weekday) {
    const p: Position = { n: c.weekday.kind === "last" ? -1 : c.weekday.n, day: c.weekday.weekday };
    shape = { ...base, unit: "month", interval: 1, positions: [p], window: null, times: [] };
  } else if (c.monthDay) {
    const m = c.monthDay;
    if (m.kind === "last" && m.offset === 0) shape = { ...base, unit: "month", interval: 1, monthDays: [-1], window: null, times: [] };
    else if (m.kind === "nearestWeekday" && m.day === 1)
      shape = { ...base, unit: "month", interval: 1, positions: [{ n: 1, day: "workday" }], window: null, times: [] };
    else if (m.kind === "lastNearestWeekday" && m.offset === 0)
      shape = { ...base, unit: "month", interval: 1, positions: [{ n: -1, day: "workday" }], window: null, times: [] };
    else return null;
  } else if (!c.domStar) {
    const doms = indices(c.daysOfMonth, 1);
    if (months.length === 1 && doms.length === 1) shape = { ...base, unit: "year", interval: 1, monthDays: doms, month: months[0]!, window: null, times: [] };
    else shape = { ...base, unit: "month", interval: 1, monthDays: doms, window: null, times: [] };
  } else {
    const said = daily(runs, c.interval);
    if (said === null || months.length !== 12) return null;
    const days = dows.length === 7 ? null : dows;
    return { ...base, ...said, days, unit: said.unit === "day" && days ? "week" : said.unit };
  }
  if (shape.unit !== "year" && months.length !== 12) return null;
  if (!c.dowStar && !c.weekday) return null;
  // A day of the month, a position or a date each year: at its times of day, one minute for all.
  if (runs.some((m) => m % 60 !== runs[0]! % 60)) return null;
  return { ...shape, times: runs.map(clock) };
}

const dayOfRule = (weekday: number): number => (weekday + 1) % 7;

/** A rule in the reader's terms (its start aside), or null when it says what no phrase does. */
function fromRule(rule: Rule, start: number): Shape | null {
  if (rule.byYearDay || rule.byWeekNo || rule.wkst !== 0 || rule.count !== null || rule.until !== null) return null;
  const unit = FREQ_UNIT[rule.freq];
  const plain = rule.byDay?.filter((d) => d.n === 0).map((d) => dayOfRule(d.weekday)) ?? [];
  const nth = rule.byDay?.filter((d) => d.n !== 0) ?? [];
  const base: Shape = {
    unit,
    interval: rule.interval,
    days: plain.length > 0 ? plain : null,
    monthDays: rule.byMonthDay,
    positions: nth.length > 0 ? nth.map((d) => ({ n: d.n, day: dayOfRule(d.weekday) })) : null,
    month: rule.byMonth?.length === 1 ? rule.byMonth[0]! : null,
    window: null,
    times: [],
  };
  if (rule.byMonth && rule.byMonth.length !== 1) return null;
  if (unit === "minute" || unit === "hour") return rule.byHour || rule.byMinute || rule.bySetPos || rule.byMonth || rule.byMonthDay || base.days ? null : base;
  // What a rule leaves to its start, as dateutil does: a week's day, a month's day, a year's date.
  const from = civilFields(start);
  if (unit === "week" && !rule.byDay) base.days = [from.weekday];
  if (unit === "month" && !rule.byDay && !rule.byMonthDay) base.monthDays = [from.day];
  if (unit === "year" && !rule.byDay && !rule.byMonthDay && !rule.byMonth) Object.assign(base, { month: from.month, monthDays: [from.day] });
  // A date each year is one day of one month; anything else a year says (its weeks, its positions) no phrase does.
  if (unit === "year" && (base.month === null || base.monthDays?.length !== 1 || rule.byDay)) return null;
  if (unit !== "year" && rule.byMonth) return null;
  if ((unit === "month" || unit === "year") && plain.length > 0 && !(rule.freq === "MONTHLY" && rule.bySetPos)) return null;
  const workdays = rule.freq === "MONTHLY" && rule.bySetPos !== null && plain.length === 5 && nth.length === 0;
  if (workdays) {
    base.positions = rule.bySetPos!.map((n) => ({ n, day: "workday" }));
    base.days = null;
  } else if (rule.bySetPos && rule.freq !== "DAILY") return null;
  const minutes = rule.byMinute ?? [Math.floor((start % DAY_MS) / MINUTE_MS) % 60];
  const hours = rule.byHour ?? [Math.floor((start % DAY_MS) / (60 * MINUTE_MS))];
  let runs = hours.flatMap((h) => minutes.map((m) => h * 60 + m)).sort((a, b) => a - b);
  if (rule.bySetPos && !workdays) runs = rule.bySetPos.map((p) => runs.at(p > 0 ? p - 1 : p)!).filter((m) => m !== undefined);
  if ((rule.bySetPos && !workdays) || minutes.length > 1) {
    const said = daily(
      [...new Set(runs)].sort((a, b) => a - b),
      true,
    );
    if (said === null || said.times.length > 0 || rule.interval !== 1) return null;
    return { ...base, ...said };
  }
  return { ...base, times: runs.map(clock) };
}

const dateOf = (local: number): string => localText(local).slice(0, 10);
const timeOf = (local: number): string => localText(local).slice(11);
function dateOfSaid(at: SaidAt): SaidDate {
  const [y, m, d] = at.date.split("-").map(Number) as [number, number, number];
  const [h, mi] = (at.time ?? "00:00").split(":").map(Number) as [number, number];
  return { local: localMs(y, m, d, h, mi), dateOnly: at.time === null, month: false };
}

/** The plan the reader would read of `said`: what `form.ts` makes the schedule of. */
export function planOf(said: Said): Plan {
  return {
    unit: said.unit,
    interval: said.interval,
    days: said.days && new Set(said.days),
    except: null,
    monthDays: said.monthDays,
    positions: said.positions,
    month: said.month,
    times: said.times,
    part: null,
    window: said.window,
    count: null,
    until: said.until && dateOfSaid(said.until),
    runs: said.runs,
    span: null,
    start: said.start && dateOfSaid(said.start),
  };
}

/** The same schedule: the same cron, else the same next runs from now. */
function same(a: Schedule, b: Schedule, zone: string, now: number): boolean {
  if (a.type === "cron" && b.type === "cron") {
    const key = (c: CronSchedule) =>
      JSON.stringify([c.minutes, c.hours, c.daysOfMonth, c.months, c.daysOfWeek, c.monthDay, c.weekday, c.domStar, c.dowStar, c.interval]);
    return key(a.cron) === key(b.cron);
  }
  const runsOf = (s: Schedule): number[] => {
    const out: number[] = [];
    let after = now;
    for (let i = 0; i < SAME_RUNS; i++) {
      const next =
        s.type === "at" ? (i === 0 ? { at: s.at } : null) : s.type === "cron" ? nextOccurrence(s.cron, zone, after) : nextRuleOccurrence(s.rule, zone, after);
      if (!next) break;
      out.push(next.at);
      after = next.at;
    }
    return out;
  };
  return JSON.stringify(runsOf(a)) === JSON.stringify(runsOf(b));
}

/** A job's ends as a phrase says them: a date alone for the end of a day. */
export function endsSaid(ends: JobEnds): Pick<Said, "until" | "runs"> {
  const until = ends.until === null ? null : untilLocal(ends.until);
  const endOfDay = until !== null && (until % DAY_MS) / MINUTE_MS === 1439;
  return { until: until === null ? null : { date: dateOf(until), time: endOfDay ? null : timeOf(until) }, runs: ends.runsLeft };
}

/**
 * What `schedule` with `ends` says at `now` in `zone`, in the reader's terms, checked: the reader writes the same
 * schedule and ends of it. A rule says where it starts only when it must (every other Tuesday: which ones), from
 * its next run on. Null when no phrase says it.
 */
export function saidOf(schedule: Schedule, ends: JobEnds, zone: string, now: number): Said | null {
  if (schedule.type === "at") return null;
  const shape = schedule.type === "cron" ? fromCron(schedule.cron) : fromRule(schedule.rule.rule, schedule.rule.start);
  if (shape === null) return null;
  if (shape.days && shape.days.length === 7) shape.days = null;
  const said: Said = { ...shape, start: null, ...endsSaid(ends) };
  const next = schedule.type === "rule" ? nextRuleOccurrence(schedule.rule, zone, now) : null;
  const from = next === null ? null : toLocal(zone, next.at);
  const starts: (SaidAt | null)[] = [null];
  if (from !== null) {
    // Times of day say the time; an interval of minutes or hours starts at one.
    if (shape.times.length > 0) starts.push({ date: dateOf(from), time: null });
    starts.push({ date: dateOf(from), time: timeOf(from) });
  }
  for (const start of starts) {
    const candidate = { ...said, start };
    const written = scheduleOf(planOf(candidate), zone, now);
    if (!written.ok) continue;
    const e = written.value.ends;
    if ((e.until ?? null) !== ends.until || (e.runsLeft ?? null) !== ends.runsLeft) continue;
    if (same(written.value.schedule, schedule, zone, now)) return candidate;
  }
  return null;
}
