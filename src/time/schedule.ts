/**
 * @module A job's schedule as one value from the words to the row (docs/api.md#jobs, docs/time.md): one instant,
 * a cron expression or a recurrence rule from its local start, each already read, with the ends said for it. The
 * words' reader makes it (`words/read.ts`), the job fields of the API are read into it at the edge
 * (`jobs/validate.ts`), validation checks it against the chat's zone and now, and the row keeps its text
 * (`storedOf`). No stage in between reads the text of a cron or a rule again.
 */
import type { Parsed } from "../result";
import { type CronSchedule, parseCron } from "./cron";
import { formatStart, type RuleSchedule, withoutEnds } from "./rule";
import { parseRuleSchedule } from "./rules";

/** A schedule, read: one instant (epoch ms), a cron expression, or a recurrence rule (COUNT and UNTIL may be in it). */
export type Schedule = { type: "at"; at: number } | { type: "cron"; cron: CronSchedule } | { type: "rule"; rule: RuleSchedule };

/** A cron expression or a rule: a schedule that repeats. */
export type RecurringSchedule = Exclude<Schedule, { type: "at" }>;

/**
 * A cron or a rule as the API's fields give one (docs/api.md#jobs), read: the cron rules' or the rule engine's
 * sentence when it does not read.
 */
export function readRecurring(input: { cron: string } | { rrule: string; start: string }, zone: string): Parsed<RecurringSchedule> {
  if ("cron" in input) {
    const cron = parseCron(input.cron);
    return cron.ok ? { ok: true, value: { type: "cron", cron: cron.value } } : cron;
  }
  const rule = parseRuleSchedule(input, zone);
  return rule.ok ? { ok: true, value: { type: "rule", rule: rule.value } } : rule;
}

/**
 * Where a recurring schedule ends, as said with it: no run after `until`, a local date-time in the chat's zone
 * (`yyyy-MM-ddTHH:mm`, `time/until.ts`), at most `runsLeft` runs. A field left out was not said (an edit keeps the
 * job's own); null says there is none (`/edit k7m2q no end`).
 */
export type Ends = { until?: string | null; runsLeft?: number | null };

/** Nothing said of an end. */
export const NO_ENDS: Ends = {};

/** "No end": neither an end nor a count, said. */
export const ENDLESS: Ends = { until: null, runsLeft: null };

/** A job's ends as it keeps them (null: none). */
export type JobEnds = { until: string | null; runsLeft: number | null };

/** A schedule with the ends said for it: what a reader hands on and a job is made or changed with. */
export type Timing = { schedule: Schedule; ends: Ends };

/**
 * A schedule as a job's row keeps it (docs/api.md#jobs): the instant, the cron's text, the rule without COUNT and UNTIL,
 * or none of its own: a job that only its hook runs (docs/hooks.md).
 */
export type StoredSchedule = { type: "at"; at: number } | { type: "cron"; cron: string } | { type: "rule"; rrule: string; start: string } | { type: "hook" };

/** The row's form of a schedule; a rule's COUNT and UNTIL are left out (they are the job's `runsLeft` and `until`). */
export function storedOf(schedule: Schedule): StoredSchedule {
  if (schedule.type === "at") return schedule;
  if (schedule.type === "cron") return { type: "cron", cron: schedule.cron.source };
  return { type: "rule", rrule: withoutEnds(schedule.rule.rule), start: formatStart(schedule.rule.start) };
}

/**
 * A schedule as the API writes one (docs/api.md#jobs): `{ at }` (RFC 3339), `{ cron }` or `{ rrule, start }`, the
 * rule as it was read (with any COUNT and UNTIL).
 */
export function scheduleFields(schedule: Schedule): { at: string } | { cron: string } | { rrule: string; start: string } {
  if (schedule.type === "at") return { at: new Date(schedule.at).toISOString() };
  if (schedule.type === "cron") return { cron: schedule.cron.source };
  return { rrule: schedule.rule.rule.source, start: formatStart(schedule.rule.start) };
}
