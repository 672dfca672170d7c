/**
 * @module The one rule of a schedule's fields (DESIGN §3, §4): a create, a preview and the schedule tool take
 * exactly one of `at`, `cron`, `delay`, an edit at most one, and all of them answer with the same sentence.
 */
import { fail, ok, type Parsed } from "../result";
import type { PreviewInput } from "../time";

export const SCHEDULE_FIELDS = ["at", "cron", "delay"] as const;

/** The sentence for none given where one is needed, and for more than one. */
export const ONE_SCHEDULE = `Give exactly one of "at", "cron" or "delay", such as "cron": "0 8 * * 1-5" or "delay": "PT20M".`;

/** A schedule as given: one of its fields. */
export type When = PreviewInput;

/** The schedule fields of a body; null or absent counts as not given (strict function-calling models send null). */
export type ScheduleFields = { at?: string | null; cron?: string | null; delay?: string | null };

/**
 * The one schedule field given in `input`, or the sentence. `optional` (an edit) lets none be given and then
 * answers null; more than one is refused either way.
 */
export function oneSchedule(input: ScheduleFields): Parsed<When>;
export function oneSchedule(input: ScheduleFields, options: { optional: true }): Parsed<When | null>;
export function oneSchedule(input: ScheduleFields, options: { optional?: boolean } = {}): Parsed<When | null> {
  const given = SCHEDULE_FIELDS.filter((field) => typeof input[field] === "string");
  if (given.length > 1) return fail(ONE_SCHEDULE);
  const field = given[0];
  if (field === undefined) return options.optional ? ok(null) : fail(ONE_SCHEDULE);
  const value = input[field] as string;
  return ok(field === "at" ? { at: value } : field === "cron" ? { cron: value } : { delay: value });
}
