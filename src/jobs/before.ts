/**
 * @module Reminders people rely on, read and checked (pure): notices ahead of a run (docs/telegram.md#notices-ahead), a
 * job's `before`, up to three durations (`P1D`, `PT1H`), each shorter than the job's shortest interval, and the instant
 * of a job's next notice, which the chat's object keeps beside the job so that its one alarm covers them too; and a
 * run's message that nags until someone acts on it (docs/telegram.md#nag-until-done), a job's `repeat`.
 */
import { nextRecurringRun, type RecurringSchedule } from "./fire";
import { graceText, parseGrace } from "./missed";
import type { JobRecord, Repeat } from "./records";

/** A nagging message is sent again at most this many times. */
export const MAX_REPEATS = 20;
const REPEAT = `"repeat" must be { "every": an ISO 8601 duration from PT1M to P1D, "times": a whole number from 1 to 20 }, such as { "every": "PT10M", "times": 6 }, or null for none.`;

/** A create's or an edit's `repeat` for a job of `kind`: the repetition to keep (null: none), or the sentence refusing it. */
export function readRepeat(
  input: { every: string; times: number } | null,
  kind: JobRecord["kind"],
): { ok: true; repeat: Repeat | null } | { ok: false; error: string } {
  if (input === null) return { ok: true, repeat: null };
  if (kind !== "prompt") return { ok: false, error: `"repeat" is for prompt jobs: a watcher's message is sent once.` };
  const every = parseGrace(String(input.every));
  if (every === null || every < 60 || every > 86_400 || !Number.isInteger(input.times) || input.times < 1 || input.times > MAX_REPEATS)
    return { ok: false, error: REPEAT };
  return { ok: true, repeat: { everySeconds: every, times: input.times } };
}

/** At most this many notices before a run. */
export const MAX_BEFORE = 3;
/** The longest notice ahead: a week. */
export const MAX_BEFORE_SECONDS = 7 * 86_400;

const LIST = `"before" must be a list of at most 3 ISO 8601 durations from PT1M to P7D, such as ["P1D", "PT1H"].`;

/**
 * A create's or an edit's `before` for a job whose schedule is `type` and whose shortest interval between runs is
 * `shortestMs` (null: a one-off, which has none): the seconds to keep, longest first, or the one sentence refusing it.
 */
export function readBefore(
  input: readonly string[],
  type: JobRecord["schedule"]["type"],
  shortestMs: number | null,
): { ok: true; before: number[] } | { ok: false; error: string } {
  if (type === "hook") {
    // A job that becomes one only its hook runs drops its notices; naming some is refused.
    return input.length === 0
      ? { ok: true, before: [] }
      : { ok: false, error: `A job only its hook runs has no time to be told of ahead: "before" does not apply.` };
  }
  if (input.length > MAX_BEFORE) return { ok: false, error: LIST };
  const before: number[] = [];
  for (const text of input) {
    const seconds = parseGrace(String(text));
    if (seconds === null || seconds < 60 || seconds > MAX_BEFORE_SECONDS) return { ok: false, error: LIST };
    if (shortestMs !== null && seconds * 1000 >= shortestMs)
      return {
        ok: false,
        error: `"before" ${graceText(seconds)} is not shorter than this job's shortest interval between runs (${graceText(Math.round(shortestMs / 1000))}).`,
      };
    if (!before.includes(seconds)) before.push(seconds);
  }
  return { ok: true, before: before.sort((a, b) => b - a) };
}

/** The shortest time between two of a recurring schedule's next 20 runs from `now` (null: fewer than two within 5 years). */
export function shortestInterval(schedule: RecurringSchedule, zone: string, now: number): number | null {
  let shortest: number | null = null;
  let t = nextRecurringRun(schedule, zone, now);
  for (let i = 0; i < 20 && t !== null; i++) {
    const next = nextRecurringRun(schedule, zone, t);
    if (next === null) break;
    shortest = shortest === null ? next - t : Math.min(shortest, next - t);
    t = next;
  }
  return shortest;
}

/**
 * The instant of a job's next notice after `after`: the soonest of its next run less each of `before` that is still
 * to come; null for a paused job, one with no next run or no notices.
 */
export function noticeAt(job: Pick<JobRecord, "enabled" | "nextRunAt" | "before">, after: number): number | null {
  if (!job.enabled || job.nextRunAt === null || job.before.length === 0) return null;
  const next = job.before.map((s) => (job.nextRunAt as number) - s * 1000).filter((t) => t > after);
  return next.length === 0 ? null : Math.min(...next);
}
