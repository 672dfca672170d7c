/**
 * @module The rules of a job (docs/api.md, docs/time.md) as pure functions of the input, the chat's zone and `now`: a
 * create or an edit either becomes a `JobSpec` with its next run, or one sentence a person or model can act on.
 */

import { MEMORY_ID, printable, shown } from "../contracts/ids";
import { ok } from "../result";
import { type CreateJobInput, type EditJobInput, LIMITS } from "../schemas/jobs";
import { ONE_SCHEDULE, oneSchedule, SCHEDULE_FIELDS, type ScheduleFields, type When } from "../schemas/schedule";
import {
  checkOneOff,
  type Ends,
  endsBeforeFirstRun,
  type JobEnds,
  neverFires,
  nextOccurrence,
  nextRuleOccurrence,
  oneOffEnds,
  type Parsed,
  parseAt,
  readRecurring,
  readUntil,
  resolveAt,
  resolveDelay,
  ruleEnds,
  type Schedule,
  storedOf,
  type Timing,
  untilInstant,
} from "../time";
import { nextRecurringRun } from "./fire";
import { type JobSpec, specDefaults } from "./records";
import { runOptions } from "./run-options";
import { nameProblem, textProblem } from "./text-fields";

/**
 * The chat's zone and now. `pastAllowed`: an `at` may lie in the past, for an import of a one-off that was due
 * while nothing ran it (it fires at once, late, as the system it came from would have).
 */
/** `models`: the models a job may name (LLM_MODEL, then LLM_MODELS; docs/agent.md#models). */
export type RuleContext = { zone: string; now: number; pastAllowed?: boolean; models?: readonly string[] };

type Validated = { spec: JobSpec; nextRunAt: number | null };
const RULE_PROMPTS_ONLY = `A watcher takes "at" or "cron"; a recurrence rule ("rrule") is for prompt jobs.`;
const fail = (error: string): { ok: false; error: string } => ({ ok: false, error });

const checkName = (name: string): string | null => nameProblem("name", name, LIMITS.name);
const checkLength = (field: "text" | "command", value: string, max: number): string | null => textProblem(field, value, max);

function checkTimeout(seconds: number): string | null {
  return Number.isInteger(seconds) && seconds >= LIMITS.timeoutMin && seconds <= LIMITS.timeoutMax
    ? null
    : `"timeoutSeconds" must be a whole number of seconds from ${LIMITS.timeoutMin} to ${LIMITS.timeoutMax}; got ${seconds}.`;
}

/**
 * A schedule resolved: what is stored, its first run strictly after now (null: a job only its hook runs has none), and
 * a rule's own COUNT and UNTIL.
 */
type Resolved = { schedule: JobSpec["schedule"]; next: number | null; own: JobEnds };

/** No end of either kind: a job's, or a schedule's own. */
const NONE: JobEnds = { until: null, runsLeft: null };

/**
 * The schedule a create or an edit gives: the value the words' reader made (`timing`, whose input then has no
 * schedule field), else the one of the input's fields (`oneSchedule`), `"trigger": "hook"` in place of them (a job
 * only its hook runs, docs/hooks.md), or none for an edit that keeps its own.
 */
type Given = { read: Timing } | { fields: When } | { hook: true } | null;

/** `"trigger"` beside a time, or with a value other than "hook". */
export const TRIGGER_ALONE = `"trigger": "hook" takes the place of "at", "cron", "delay" and "rrule": give it alone, or give a time.`;
/** `until` or `runsLeft` for a job only its hook runs. */
const HOOK_NO_ENDS = `"until" and "runsLeft" apply only to recurring jobs (cron or rrule): a job only its hook runs has no schedule to end.`;

function givenSchedule(input: ScheduleFields & { trigger?: "hook" }, timing: Timing | undefined, optional: boolean): Parsed<Given> {
  if (input.trigger !== undefined) {
    const timed = timing !== undefined || SCHEDULE_FIELDS.some((field) => typeof input[field] === "string") || typeof input.start === "string";
    return timed ? fail(TRIGGER_ALONE) : ok({ hook: true });
  }
  if (timing === undefined) {
    const when = optional ? oneSchedule(input, { optional: true }) : oneSchedule(input);
    return when.ok ? ok(when.value === null ? null : { fields: when.value }) : when;
  }
  return SCHEDULE_FIELDS.some((field) => typeof input[field] === "string") ? fail(ONE_SCHEDULE) : ok({ read: timing });
}

const isRule = (given: Given): boolean =>
  given !== null && ("read" in given ? given.read.schedule.type === "rule" : "fields" in given && "rrule" in given.fields);

/** The API's fields read into the one schedule value (docs/api.md#jobs): `at` and `delay` as instants, checked against now. */
async function readFields(input: When, ctx: RuleContext): Promise<Parsed<Schedule>> {
  if ("cron" in input || "rrule" in input) return readRecurring(input, ctx.zone);
  if ("at" in input) {
    const at = ctx.pastAllowed ? pastOrFuture(input.at, ctx) : resolveAt(input.at, ctx.zone, ctx.now);
    return at.ok ? ok({ type: "at", at: at.value.instant }) : at;
  }
  const delay = await resolveDelay(input.delay, ctx.zone, ctx.now);
  return delay.ok ? ok({ type: "at", at: delay.value }) : delay;
}

/**
 * A schedule value at now: what the row keeps, its first run strictly after now, and a rule's COUNT and UNTIL,
 * which leave it here (`ruleEnds`, docs/api.md#jobs): the rule stored has neither. A one-off is checked against
 * now again (a reminder offered a while ago may have passed).
 */
function resolve(schedule: Schedule, ctx: RuleContext): Parsed<Resolved> {
  if (schedule.type === "cron") {
    const next = nextOccurrence(schedule.cron, ctx.zone, ctx.now);
    if (!next) return fail(neverFires(schedule.cron));
    return ok({ schedule: storedOf(schedule), next: next.at, own: NONE });
  }
  if (schedule.type === "rule") {
    const ends = ruleEnds(schedule.rule, ctx.zone, ctx.now);
    if (!ends.ok) return ends;
    // ruleEnds found the first run (COUNT and UNTIL aside, which are the ends now).
    const next = nextRuleOccurrence(schedule.rule, ctx.zone, ctx.now)!;
    const own = { until: ends.value.until, runsLeft: ends.value.runsLeft };
    return ok({ schedule: { type: "rule", rrule: ends.value.rrule, start: ends.value.start }, next: next.at, own });
  }
  if (!ctx.pastAllowed) {
    const checked = checkOneOff("at", schedule.at, ctx.zone, ctx.now);
    if (!checked.ok) return checked;
  }
  return ok({ schedule, next: schedule.at, own: NONE });
}

/** The schedule given, read (the fields) and resolved at now. */
async function resolveGiven(given: NonNullable<Given>, ctx: RuleContext): Promise<Parsed<Resolved>> {
  if ("hook" in given) return ok({ schedule: { type: "hook" }, next: null, own: NONE });
  const schedule = "read" in given ? ok(given.read.schedule) : await readFields(given.fields, ctx);
  return schedule.ok ? resolve(schedule.value, ctx) : schedule;
}

/**
 * `until` and `runsLeft` as a body gives them (undefined: not said, null: none, so an edit clears it), read in the
 * zone: `until` an instant, a local date-time or a date (its end), kept as a local date-time (`time/until.ts`).
 */
function readEnds(input: Ends, ctx: RuleContext): Parsed<Ends> {
  const read: Ends = {};
  if (input.until !== undefined) {
    if (input.until === null) read.until = null;
    else {
      const until = readUntil(input.until, ctx.zone);
      if (!until.ok) return until;
      read.until = until.value;
    }
  }
  if (input.runsLeft !== undefined) read.runsLeft = input.runsLeft;
  return checkEnds(read, ctx);
}

/** The ends given, checked: `until` after now, `runsLeft` 1–1000. The words' are local already; the fields' are read first. */
function checkEnds(read: Ends, ctx: RuleContext): Parsed<Ends> {
  if (read.until != null && untilInstant(read.until, ctx.zone) <= ctx.now)
    return fail(`"until" must be in the future; ${read.until.replace("T", " ")} in ${ctx.zone} has passed.`);
  const n = read.runsLeft;
  if (n != null && !(Number.isInteger(n) && n >= 1 && n <= LIMITS.runsLeft))
    return fail(`"runsLeft" must be a whole number of runs from 1 to ${LIMITS.runsLeft}; got ${n}.`);
  return ok(read);
}

const minOf = (a: number | null, b: number | null): number | null => (a === null ? b : b === null ? a : Math.min(a, b));
/** The earlier of two local ends (one zone, one form: their text sorts as their time). */
const earlier = (a: string | null, b: string | null): string | null => (a === null ? b : b === null ? a : a < b ? a : b);

/**
 * A recurring job's ends: the ones given (undefined: `kept`, the job's own so far), each with the rule's own
 * COUNT or UNTIL, whichever ends it first; refused when the first run `next` falls after `until`.
 */
function endsOf(given: Ends, kept: JobEnds, own: JobEnds, next: number | null, zone: string): Parsed<JobEnds> {
  const until = earlier(given.until === undefined ? (own.until === null ? kept.until : null) : given.until, own.until);
  const runsLeft = minOf(given.runsLeft === undefined ? (own.runsLeft === null ? kept.runsLeft : null) : given.runsLeft, own.runsLeft);
  if (until !== null && next !== null && next > untilInstant(until, zone)) return fail(endsBeforeFirstRun(next, untilInstant(until, zone), zone));
  return { ok: true, value: { until, runsLeft } };
}

/** The sentence for an end given to a schedule that has none: a one-off's, or a job's only its hook runs. */
function endsRefused(input: Ends, type: "at" | "hook"): string | null {
  const problem = oneOffEnds(input);
  return problem === null ? null : type === "at" ? problem : HOOK_NO_ENDS;
}

/** An `at` that may be past (an import); still at most 5 years ahead. */
function pastOrFuture(input: string, ctx: RuleContext): Parsed<{ instant: number }> {
  const at = parseAt(input, ctx.zone);
  if (!at.ok) return at;
  const checked = checkOneOff("at", Math.max(at.value.instant, ctx.now), ctx.zone, ctx.now);
  return checked.ok ? at : checked;
}

const PROMPT_NO_COMMAND = `A prompt job takes "text", not "command"; use kind "watcher" to run a script.`;
const WATCHER_NO_TEXT = `A watcher takes "command", not "text": its script's output becomes the prompt.`;
const TIMEOUT_WATCHERS_ONLY = `"timeoutSeconds" applies only to watchers.`;
const ONLY_ON_CHANGE_WATCHERS_ONLY = `"onlyOnChange" applies only to watchers.`;
const MEMORY_REFS_PROMPTS_ONLY = `"memoryRefs" applies only to prompt jobs: a watcher's prompt is its script's output.`;

/**
 * The shape of `memoryRefs` (docs/api.md): at most 5 memory record ids, each once. Whether each record
 * exists is the chat object's check, which has them.
 */
function memoryRefsProblem(refs: readonly string[]): string | null {
  if (refs.length > LIMITS.memoryRefs) return `"memoryRefs" may name at most ${LIMITS.memoryRefs} memory records; got ${refs.length}.`;
  const bad = refs.find((id) => !MEMORY_ID.test(id));
  if (bad !== undefined) return `"memoryRefs" holds "${shown(bad)}", which is not a memory record id; ids look like "m4x7pq" (see memory_list).`;
  const twice = refs.find((id, i) => refs.indexOf(id) !== i);
  return twice === undefined ? null : `"memoryRefs" names ${twice} twice; name each memory record once.`;
}

/**
 * Validates a create request. The legacy kind `reminder` of the older schedulers Cuckoo imports from becomes a prompt whose text is
 * `Remind me: <text>`. `timing`: the schedule the words' reader made, in place of the input's schedule fields.
 */
export async function validateCreate(input: CreateJobInput, ctx: RuleContext, timing?: Timing): Promise<Parsed<Validated>> {
  const nameProblem = checkName(input.name);
  if (nameProblem) return fail(nameProblem);
  const kind: "prompt" | "watcher" = input.kind === "watcher" ? "watcher" : "prompt";
  const given = givenSchedule(input, timing, false);
  if (!given.ok) return given;
  let text: string | null = null;
  let command: string | null = null;
  if (kind === "prompt") {
    if (input.command !== undefined) return fail(PROMPT_NO_COMMAND);
    if (input.timeoutSeconds !== undefined) return fail(TIMEOUT_WATCHERS_ONLY);
    if (input.onlyOnChange !== undefined) return fail(ONLY_ON_CHANGE_WATCHERS_ONLY);
    if (input.text === undefined) return fail(`A prompt job needs "text": what the agent should do, such as "Summarise my inbox".`);
    const refs = input.memoryRefs === undefined ? null : memoryRefsProblem(input.memoryRefs);
    if (refs) return fail(refs);
    const problem = checkLength("text", input.text, LIMITS.text);
    if (problem) return fail(problem);
    text = input.kind === "reminder" ? `Remind me: ${input.text}` : input.text;
  } else {
    if (input.text !== undefined) return fail(WATCHER_NO_TEXT);
    if (input.memoryRefs !== undefined) return fail(MEMORY_REFS_PROMPTS_ONLY);
    if (input.command === undefined) return fail(`A watcher needs "command": a /bin/sh script that prints only when its condition holds.`);
    const problem = checkLength("command", input.command, LIMITS.command);
    if (problem) return fail(problem);
    if (input.timeoutSeconds !== undefined) {
      const t = checkTimeout(input.timeoutSeconds);
      if (t) return fail(t);
    }
    command = input.command;
  }
  if (kind === "watcher" && isRule(given.value)) return fail(RULE_PROMPTS_ONLY);
  const ends = timing ? checkEnds(timing.ends, ctx) : readEnds(input, ctx);
  if (!ends.ok) return ends;
  const when = await resolveGiven(given.value!, ctx);
  if (!when.ok) return when;
  let end = NONE;
  if (when.value.schedule.type === "at" || when.value.schedule.type === "hook") {
    const problem = endsRefused(input, when.value.schedule.type);
    if (problem) return fail(problem);
  } else {
    const read = endsOf(ends.value, NONE, when.value.own, when.value.next, ctx.zone);
    if (!read.ok) return read;
    end = read.value;
  }
  const options = runOptions(input, when.value.schedule.type, specDefaults(), ctx, when.value.schedule, kind);
  if (!options.ok) return options;
  return {
    ok: true,
    value: {
      spec: {
        ...specDefaults(),
        ...options.value,
        name: printable(input.name).trim(),
        kind,
        schedule: when.value.schedule,
        until: end.until,
        runsLeft: end.runsLeft,
        text,
        command,
        silent: input.silent === true,
        ...(kind === "prompt"
          ? { memoryRefs: [...(input.memoryRefs ?? [])] }
          : { timeoutSeconds: input.timeoutSeconds ?? null, onlyOnChange: input.onlyOnChange === true }),
      },
      nextRunAt: when.value.next,
    },
  };
}

/**
 * The result of an edit: the new definition; `nextRunAt`, its next run from now, to take when `scheduleChanged`
 * (a new schedule) or `reopened` (new ends for a job whose last run was claimed, so it runs again).
 */
export type Edited = { spec: JobSpec; nextRunAt: number | null; scheduleChanged: boolean; reopened: boolean };

/**
 * Validates an edit of `current` as on create; it applies from the next occurrence. A new schedule keeps the
 * job's `until` and `runsLeft` unless the edit or the new rule's COUNT and UNTIL say otherwise; a one-off has
 * neither. `timing`: the new schedule the words' reader made, in place of the input's schedule fields.
 */
export async function validateEdit(current: JobSpec, input: EditJobInput, ctx: RuleContext, timing?: Timing): Promise<Parsed<Edited>> {
  const spec: JobSpec = { ...current };
  if (input.name !== undefined) {
    const problem = checkName(input.name);
    if (problem) return fail(problem);
    spec.name = printable(input.name).trim();
  }
  if (current.kind === "prompt") {
    if (input.command !== undefined) return fail(PROMPT_NO_COMMAND);
    if (input.timeoutSeconds !== undefined) return fail(TIMEOUT_WATCHERS_ONLY);
    if (input.onlyOnChange !== undefined) return fail(ONLY_ON_CHANGE_WATCHERS_ONLY);
    if (input.text !== undefined) {
      const problem = checkLength("text", input.text, LIMITS.text);
      if (problem) return fail(problem);
      spec.text = input.text;
    }
    if (input.memoryRefs !== undefined) {
      const problem = memoryRefsProblem(input.memoryRefs);
      if (problem) return fail(problem);
      spec.memoryRefs = [...input.memoryRefs];
    }
  } else {
    if (input.text !== undefined) return fail(WATCHER_NO_TEXT);
    if (input.memoryRefs !== undefined) return fail(MEMORY_REFS_PROMPTS_ONLY);
    if (input.onlyOnChange !== undefined) spec.onlyOnChange = input.onlyOnChange;
    if (input.command !== undefined) {
      const problem = checkLength("command", input.command, LIMITS.command);
      if (problem) return fail(problem);
      spec.command = input.command;
    }
    if (input.timeoutSeconds !== undefined) {
      const t = checkTimeout(input.timeoutSeconds);
      if (t) return fail(t);
      spec.timeoutSeconds = input.timeoutSeconds;
    }
  }
  if (input.silent !== undefined) spec.silent = input.silent;
  const given = givenSchedule(input, timing, true);
  if (!given.ok) return given;
  if (current.kind === "watcher" && isRule(given.value)) return fail(RULE_PROMPTS_ONLY);
  const ends = timing ? checkEnds(timing.ends, ctx) : readEnds(input, ctx);
  if (!ends.ok) return ends;
  const endsGiven = ends.value.until !== undefined || ends.value.runsLeft !== undefined;
  if (given.value === null && !endsGiven) {
    const options = runOptions(input, spec.schedule.type, current, ctx, input.before === undefined ? undefined : spec.schedule, current.kind);
    if (!options.ok) return options;
    return { ok: true, value: { spec: { ...spec, ...options.value }, nextRunAt: null, scheduleChanged: false, reopened: false } };
  }
  let when: Resolved;
  if (given.value !== null) {
    const resolved = await resolveGiven(given.value, ctx);
    if (!resolved.ok) return resolved;
    when = resolved.value;
  } else {
    // New ends for the schedule the job has: checked against its next run from now.
    if (current.schedule.type === "at" || current.schedule.type === "hook") {
      const problem = endsRefused(input, current.schedule.type);
      if (problem !== null) return fail(problem);
      const options = runOptions(input, spec.schedule.type, current, ctx, input.before === undefined ? undefined : spec.schedule, current.kind);
      if (!options.ok) return options;
      return { ok: true, value: { spec: { ...spec, ...options.value }, nextRunAt: null, scheduleChanged: false, reopened: false } };
    }
    const next = nextRecurringRun(current.schedule, ctx.zone, ctx.now);
    if (next === null) return fail(`This job's schedule has no run within 5 years; give it a new one.`);
    when = { schedule: current.schedule, next, own: NONE };
  }
  spec.schedule = when.schedule;
  if (when.schedule.type === "at" || when.schedule.type === "hook") {
    const problem = endsRefused(input, when.schedule.type);
    if (problem) return fail(problem);
    spec.until = null;
    spec.runsLeft = null;
  } else {
    // A count used up (0: its last run was claimed) is no count for the schedule that goes on.
    const kept =
      current.schedule.type === "at" || current.schedule.type === "hook"
        ? NONE
        : { until: current.until, runsLeft: current.runsLeft === 0 ? null : current.runsLeft };
    const read = endsOf(ends.value, kept, when.own, when.next, ctx.zone);
    if (!read.ok) return read;
    spec.until = read.value.until;
    spec.runsLeft = read.value.runsLeft;
  }
  const options = runOptions(input, spec.schedule.type, current, ctx, spec.schedule, current.kind);
  if (!options.ok) return options;
  Object.assign(spec, options.value);
  const reopened = given.value === null && current.runsLeft === 0;
  return { ok: true, value: { spec, nextRunAt: when.next, scheduleChanged: given.value !== null, reopened } };
}
