/**
 * @module The one rule of a schedule's fields (docs/api.md, docs/time.md): a create, a preview and the schedule tool take
 * exactly one of `at`, `cron`, `delay`, `rrule` (a rule with its `start`), an edit at most one, and all of them
 * answer with the same sentence.
 */
import { fail, ok, type Parsed } from "../result";
import type { PreviewInput, RuleInput } from "../time";

export const SCHEDULE_FIELDS = ["at", "cron", "delay", "rrule"] as const;
/** What a preview takes besides the schedule: a rule's start and where a recurring job ends. */
export const PREVIEW_FIELDS = [...SCHEDULE_FIELDS, "start", "until", "runsLeft"] as const;

/** The sentence for none given where one is needed, and for more than one. */
export const ONE_SCHEDULE = `Give exactly one of "at", "cron", "delay" or "rrule" (with "start"), such as "cron": "0 8 * * 1-5" or "delay": "PT20M".`;
/** A rule without its start. */
export const RULE_NEEDS_START =
  '"rrule" needs "start", its first local date-time in the chat\'s zone, such as "rrule": "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU", "start": "2026-12-08T10:00".';
/** A start without a rule. */
export const START_ONLY_WITH_RULE = `"start" goes with "rrule" only: it is a rule's first local date-time; for one time use "at".`;

/** A schedule as given: one of its fields (a rule with its start). */
export type When = PreviewInput | RuleInput;

/**
 * The schedule fields of a body; null or absent counts as not given (strict function-calling models send null).
 */
export type ScheduleFields = { at?: string | null; cron?: string | null; delay?: string | null; rrule?: string | null; start?: string | null };

/**
 * The one schedule field given in `input`, or the sentence. `optional` (an edit) lets none be given and then
 * answers null; more than one is refused either way, and so are a rule without its start and a start alone.
 * `oneOf`: the sentence for none or several, where the caller takes a form of its own too (the preview's `when`).
 */
export function oneSchedule(input: ScheduleFields, options?: { oneOf?: string }): Parsed<When>;
export function oneSchedule(input: ScheduleFields, options: { optional: true }): Parsed<When | null>;
export function oneSchedule(input: ScheduleFields, options: { optional?: boolean; oneOf?: string } = {}): Parsed<When | null> {
  const given = SCHEDULE_FIELDS.filter((field) => typeof input[field] === "string");
  const start = typeof input.start === "string" ? input.start : null;
  const oneOf = options.oneOf ?? ONE_SCHEDULE;
  if (given.length > 1) return fail(oneOf);
  const field = given[0];
  if (field !== "rrule" && start !== null) return fail(START_ONLY_WITH_RULE);
  if (field === undefined) return options.optional ? ok(null) : fail(oneOf);
  const value = input[field] as string;
  if (field === "rrule") return start === null ? fail(RULE_NEEDS_START) : ok({ rrule: value, start });
  return ok(field === "at" ? { at: value } : field === "cron" ? { cron: value } : { delay: value });
}
