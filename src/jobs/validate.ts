/**
 * @module The rules of a job (DESIGN §3, §4) as pure functions of the input, the chat's zone and `now`: a
 * create or an edit either becomes a `JobSpec` with its next run, or one sentence a person or model can act on.
 */
import { MEMORY_ID, shown } from "../contracts/ids";
import { checkOneOff, loadCron, neverFires, nextOccurrence, parseAt, parseCron, resolveAt, resolveDelay, type Parsed } from "../time";
import { LIMITS, type CreateJobInput, type EditJobInput } from "../schemas/jobs";
import { oneSchedule, type When } from "../schemas/schedule";
import { specDefaults, type JobSpec } from "./records";
import { nameProblem, textProblem } from "./text-fields";

/**
 * The chat's zone and now. `pastAllowed`: an `at` may lie in the past, for an import of a one-off that was due
 * while nothing ran it (it fires at once, late, as the system it came from would have).
 */
export type RuleContext = { zone: string; now: number; pastAllowed?: boolean };

type Validated = { spec: JobSpec; nextRunAt: number };
const fail = (error: string): { ok: false; error: string } => ({ ok: false, error });

const checkName = (name: string): string | null => nameProblem("name", name, LIMITS.name);
const checkLength = (field: "text" | "command", value: string, max: number): string | null => textProblem(field, value, max);

function checkTimeout(seconds: number): string | null {
  return Number.isInteger(seconds) && seconds >= LIMITS.timeoutMin && seconds <= LIMITS.timeoutMax
    ? null
    : `"timeoutSeconds" must be a whole number of seconds from ${LIMITS.timeoutMin} to ${LIMITS.timeoutMax}; got ${seconds}.`;
}

/** Resolves the one of `at`, `cron`, `delay` given to a schedule and its next run, strictly after now. */
async function resolveWhen(input: When, ctx: RuleContext): Promise<Parsed<{ schedule: JobSpec["schedule"]; next: number }>> {
  if ("cron" in input) {
    await loadCron();
    const cron = parseCron(input.cron);
    if (!cron.ok) return cron;
    const next = nextOccurrence(cron.value, ctx.zone, ctx.now);
    if (!next) return fail(neverFires(cron.value));
    return { ok: true, value: { schedule: { type: "cron", cron: cron.value.source }, next: next.at } };
  }
  if ("at" in input) {
    const at = ctx.pastAllowed ? pastOrFuture(input.at, ctx) : resolveAt(input.at, ctx.zone, ctx.now);
    if (!at.ok) return at;
    return { ok: true, value: { schedule: { type: "at", at: at.value.instant }, next: at.value.instant } };
  }
  const delay = await resolveDelay(input.delay, ctx.zone, ctx.now);
  if (!delay.ok) return delay;
  return { ok: true, value: { schedule: { type: "at", at: delay.value }, next: delay.value } };
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
 * The shape of `memoryRefs` (DESIGN §3, §9): at most 5 memory record ids, each once. Whether each record
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
 * Validates a create request. The legacy kind `reminder` of the seed designs becomes a prompt whose text is
 * `Remind me: <text>`.
 */
export async function validateCreate(input: CreateJobInput, ctx: RuleContext): Promise<Parsed<Validated>> {
  const nameProblem = checkName(input.name);
  if (nameProblem) return fail(nameProblem);
  const kind: "prompt" | "watcher" = input.kind === "watcher" ? "watcher" : "prompt";
  const given = oneSchedule(input);
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
  const when = await resolveWhen(given.value, ctx);
  if (!when.ok) return when;
  return {
    ok: true,
    value: {
      spec: {
        ...specDefaults(),
        name: input.name.trim(),
        kind,
        schedule: when.value.schedule,
        text,
        command,
        silent: input.silent === true,
        ...(kind === "prompt" ? { memoryRefs: [...(input.memoryRefs ?? [])] } : { timeoutSeconds: input.timeoutSeconds ?? null, onlyOnChange: input.onlyOnChange === true }),
      },
      nextRunAt: when.value.next,
    },
  };
}

/** The result of an edit: the new definition, and the new next run when the schedule changed. */
export type Edited = { spec: JobSpec; nextRunAt: number | null; scheduleChanged: boolean };

/** Validates an edit of `current` as on create; it applies from the next occurrence. */
export async function validateEdit(current: JobSpec, input: EditJobInput, ctx: RuleContext): Promise<Parsed<Edited>> {
  const spec: JobSpec = { ...current };
  if (input.name !== undefined) {
    const problem = checkName(input.name);
    if (problem) return fail(problem);
    spec.name = input.name.trim();
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
  const given = oneSchedule(input, { optional: true });
  if (!given.ok) return given;
  if (given.value === null) return { ok: true, value: { spec, nextRunAt: null, scheduleChanged: false } };
  const when = await resolveWhen(given.value, ctx);
  if (!when.ok) return when;
  spec.schedule = when.value.schedule;
  return { ok: true, value: { spec, nextRunAt: when.value.next, scheduleChanged: true } };
}
