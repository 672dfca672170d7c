/**
 * @module Preview (docs/time.md): the next occurrences of a schedule (cron, rule, `at`, delay) in a zone, one note
 * per occurrence a DST transition moved, and where a recurring job would end; with the schedule it read, which the
 * words describe (`words/say.ts`: the engine knows no language).
 */

import { fail, ok, type Parsed } from "../result";
import { checkOneOff, formatWallTime, parseAt, resolveDelay, wallTimeNote } from "./at";
import type { CronSchedule } from "./cron";
import { formatLocalDateTime } from "./format";
import { type DstNote, nextOccurrence, type Occurrence } from "./next";
import { nextRuleOccurrence, type RuleSchedule, ruleEnds, ruleNeverFires } from "./rules";
import { type Ends, type JobEnds, type RecurringSchedule, readRecurring, type Schedule } from "./schedule";
import { readUntil, untilInstant } from "./until";
import { formatOffsetMs } from "./zone";

/** One schedule: a cron expression, an `at` or a delay (which one a client gave is `oneSchedule`'s rule). */
export type PreviewInput = { cron: string } | { at: string } | { delay: string };
/** A recurrence rule and its start (docs/time.md), which `preview` takes too (a job's schedule from the integration on). */
export type RuleInput = { rrule: string; start: string };
/** The next runs, a note per one a DST change moved, and what was previewed: the schedule read and its ends given. */
export type Preview = { occurrences: string[]; notes: string[]; read: { schedule: Schedule; ends: JobEnds } };
/**
 * Where a recurring job ends (docs/time.md#jobs-that-end-until-and-runsleft), as a client gives it: `until` a local
 * date-time, a date (its end) or an instant (`time/until.ts`), `runsLeft` 1–1000.
 */
export type PreviewEnds = { until?: string | null; runsLeft?: number | null };

/** Ends as instants in the zone, for the walk: no run after `until` (epoch ms), at most `runsLeft` runs. */
type EndsAt = { until: number | null; runsLeft: number | null };

export const PREVIEW_DEFAULT_COUNT = 5;
export const PREVIEW_MAX_COUNT = 20;

/**
 * Previews a schedule in `zone`, with `from` standing for now. Errors are the sentences of docs/api.md, docs/time.md (a cron or a
 * rule that never fires within 5 years, an `at` in the past, a delay out of range). A recurring schedule's
 * occurrences stop where the job would end: at `until`, after `runsLeft` runs, and at a rule's own UNTIL and
 * COUNT (COUNT less the runs between `start` and `from`).
 */
export async function preview(
  input: PreviewInput | RuleInput,
  zone: string,
  from: number,
  count = PREVIEW_DEFAULT_COUNT,
  ends: PreviewEnds = {},
): Promise<Parsed<Preview>> {
  if ("cron" in input || "rrule" in input) {
    const end = readEnds(ends, zone);
    if (!end.ok) return end;
    const schedule = readRecurring(input, zone);
    if (!schedule.ok) return schedule;
    return previewSchedule(schedule.value, end.value, zone, from, count);
  }
  const oneOff = oneOffEnds(ends);
  if (oneOff !== null) return fail(oneOff);
  if ("at" in input) {
    const parsed = parseAt(input.at, zone);
    if (!parsed.ok) return parsed;
    const { instant, local, resolution } = parsed.value;
    const checked = checkOneOff("at", instant, zone, from);
    if (!checked.ok) return checked;
    const note = local === null ? null : wallTimeNote(local, resolution, instant, zone);
    const notes = note === null ? [] : [note];
    return ok({ occurrences: [new Date(instant).toISOString()], notes, read: once(instant) });
  }
  const resolved = await resolveDelay(input.delay, zone, from);
  if (!resolved.ok) return resolved;
  return ok({ occurrences: [new Date(resolved.value).toISOString()], notes: [], read: once(resolved.value) });
}

/**
 * Previews a recurring schedule already read, as `preview` does: its occurrences from `from`, stopping where its
 * job would end (`ends`, and a rule's own COUNT and UNTIL).
 */
export async function previewSchedule(
  schedule: RecurringSchedule,
  said: Ends,
  zone: string,
  from: number,
  count = PREVIEW_DEFAULT_COUNT,
): Promise<Parsed<Preview>> {
  const ends: EndsAt = { until: said.until == null ? null : untilInstant(said.until, zone), runsLeft: said.runsLeft ?? null };
  const read = { schedule, ends: { until: said.until ?? null, runsLeft: said.runsLeft ?? null } };
  const previewed = schedule.type === "rule" ? previewRule(schedule.rule, ends, zone, from, count) : previewCron(schedule.cron, ends, zone, from, count);
  return previewed.ok ? ok({ ...previewed.value, read }) : previewed;
}

function previewCron(cron: CronSchedule, ends: EndsAt, zone: string, from: number, count: number): Parsed<Runs> {
  return recurring((after) => nextOccurrence(cron, zone, after), ends, zone, from, count, neverFires(cron));
}

/** The ends a client gave beside a schedule, read in the zone: `until` a local date-time, `runsLeft` 1–1000. */
export function readEnds(ends: PreviewEnds, zone: string): Parsed<JobEnds> {
  let until: string | null = null;
  if (ends.until !== undefined && ends.until !== null) {
    const parsed = readUntil(ends.until, zone);
    if (!parsed.ok) return parsed;
    until = parsed.value;
  }
  const runsLeft = ends.runsLeft ?? null;
  if (runsLeft !== null && !(Number.isInteger(runsLeft) && runsLeft >= 1 && runsLeft <= 1000)) {
    return fail(`"runsLeft" must be a whole number from 1 to 1000; got ${runsLeft}.`);
  }
  return ok({ until, runsLeft });
}

function previewRule(schedule: RuleSchedule, ends: EndsAt, zone: string, from: number, count: number): Parsed<Runs> {
  const own = ruleEnds(schedule, zone, from);
  if (!own.ok) return own;
  const until = minOf(ends.until, own.value.until === null ? null : untilInstant(own.value.until, zone));
  const runsLeft = minOf(ends.runsLeft, own.value.runsLeft);
  const walk = (after: number) => nextRuleOccurrence(schedule, zone, after);
  return recurring(walk, { until, runsLeft }, zone, from, count, ruleNeverFires(schedule));
}

type Runs = Omit<Preview, "read">;

const minOf = (a: number | null, b: number | null): number | null => (a === null ? b : b === null ? a : Math.min(a, b));

/** The next occurrences of a recurring schedule from `from`, stopping where its job would end. */
function recurring(next: (after: number) => Occurrence | null, ends: EndsAt, zone: string, from: number, count: number, never: string): Parsed<Runs> {
  const occurrences: string[] = [];
  const notes: string[] = [];
  let after = from;
  const limit = ends.runsLeft === null ? count : Math.min(count, ends.runsLeft);
  for (let i = 0; i < limit; i++) {
    const o = next(after);
    if (!o) {
      if (i === 0) return fail(never);
      break;
    }
    if (ends.until !== null && o.at > ends.until) {
      if (i === 0) return fail(endsBeforeFirstRun(o.at, ends.until, zone));
      break;
    }
    occurrences.push(new Date(o.at).toISOString());
    if (o.note) notes.push(noteText(o.note, o.at, zone));
    after = o.at;
  }
  return ok({ occurrences, notes });
}

/** The sentence for `until` or `runsLeft` given with a one-off (`at`, `delay`), or null when neither is. */
export function oneOffEnds(ends: PreviewEnds): string | null {
  const field = ends.until !== undefined && ends.until !== null ? "until" : ends.runsLeft !== undefined && ends.runsLeft !== null ? "runsLeft" : null;
  return field === null ? null : `"${field}" applies only to recurring jobs (cron or rrule): a one-off runs once.`;
}

/** The sentence for an `until` before a recurring schedule's first run. */
export function endsBeforeFirstRun(next: number, until: number, zone: string): string {
  const [first, end] = [formatLocalDateTime(next, zone), formatLocalDateTime(until, zone)];
  return `The schedule ends before its first run: the next is ${first} in ${zone}, after "until" (${end}).`;
}

/** One time, as previewed: the instant, with no end. */
function once(instant: number): Preview["read"] {
  return { schedule: { type: "at", at: instant }, ends: { until: null, runsLeft: null } };
}

/** The sentence for a cron expression with no occurrence within the search bound. */
export function neverFires(cron: CronSchedule): string {
  return `The cron expression "${cron.source}" never fires within 5 years; check its day-of-month, month and day-of-week fields.`;
}

/** One sentence for an occurrence a DST transition moved. */
export function noteText(note: DstNote, at: number, zone: string): string {
  const wall = formatWallTime(note.local);
  switch (note.kind) {
    case "gap":
      return `${wall} does not exist in ${zone}; runs at ${formatLocalDateTime(at, zone).slice(11)}`;
    case "first":
      return `${wall} occurs twice in ${zone}; runs once, at the first (${formatOffsetMs(note.local - at)})`;
    case "second":
      return `${wall} occurs twice in ${zone}; runs at both, the second at ${formatOffsetMs(note.local - at)}`;
  }
}
