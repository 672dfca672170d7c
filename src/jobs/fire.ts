/**
 * @module Firing decisions (docs/api.md#how-a-job-fires) as pure functions of a due job, `now` and the chat's circumstances:
 * claim a run (a prompt for the queue, or a watcher's call to the runner), record an overlap as skipped, hold
 * an undeliverable chat's job, or fail a prompt whose memory records are gone. A prompt carries the current
 * content of its memory records (read by the caller at claim time, never a snapshot). The Durable Object
 * writes what these return and sends what they build.
 */
import { leaseMs } from "../config";
import { runIdOf } from "../contracts/run-id";
import { withInput } from "../hooks/input";
import type { RunStatus } from "../schemas/jobs";
import { nextOccurrence, nextRuleOccurrence, parseCron, parseRuleSchedule, untilInstant } from "../time";
import { goneDetail, type MemoryContent, memoryGoneText, resolveRefs } from "./memory";
import { MISSED_DETAIL, type MissedAsk, type MissedPlan, planMissed } from "./missed";
import { type FireContext, promptMessage } from "./prompt";
import type { JobRecord, RunRecord, RunVia, StoredSchedule } from "./records";
import { LATE_AFTER_MS, SKIPPED_BY_HAND } from "./texts";
import { watcherLeaseMs } from "./watcher";

/** A prompt's lease: how long an agent has to settle it (docs/api.md#how-a-job-fires). */
export const PROMPT_LEASE_MS = 10 * 60_000;
/** A sent prompt (a job's or a user's) must reach the run gate this soon, or it is sent again (docs/api.md#how-a-job-fires). */
export const OFFER_DEADLINE_MS = 2 * 60_000;
/** A prompt that never reaches the run gate is sent again at most this often, then it has failed. */
export const MAX_RESENDS = 3;
/** An undeliverable chat's one-off is retried this often. */
export const UNDELIVERABLE_RETRY_MS = 60 * 60_000;
/** A one-off due while a manual run of it is in flight looks again this often. */
export const ONE_OFF_BUSY_RETRY_MS = 60_000;

export type { FireContext };

export type FireDecision =
  /**
   * Claim: write `run` (claimed, with what it sends: the prompt, or the watcher's call to the runner) and
   * `job` together, then dispatch.
   */
  | { action: "claim"; job: JobRecord; run: RunRecord; missed: number; skipped?: RunRecord[]; ask?: MissedAsk }
  /**
   * An occurrence while a run is in flight, or one skipped by hand: history gets a `skipped` run (unless the
   * occurrence has a run already); `lastResult` stays.
   */
  | { action: "skip"; job: JobRecord; run: RunRecord }
  /**
   * The chat's zone changed: a recurring job's next run moved there (no run), and each occurrence it had skipped
   * by hand moved with it (`was` the run id it had; `run` the same skip at the same wall-clock time in the new zone).
   */
  | { action: "move"; job: JobRecord; skips: readonly MovedSkip[] }
  /**
   * Missed occurrences (docs/time.md#missed-runs) and no run: `skipped` recorded (detail `missed`), the job as it is
   * after them (`drop`: a one-off whose policy is skip is deleted, `told` the line that says so), and the chat
   * asked (`ask`: Run now and Skip).
   */
  | { action: "missed"; job: JobRecord; skipped: RunRecord[]; ask: MissedAsk | null; drop: boolean }
  /** Undeliverable chat: no run; a recurring job advances, a one-off waits an hour. */
  | { action: "hold"; job: JobRecord }
  /**
   * A recurring job with no run left before its `until` and none in flight (docs/time.md#jobs-that-end-until-and-runsleft): it is deleted, as
   * after its last run.
   */
  | { action: "end"; job: JobRecord }
  /**
   * A memory record the prompt refers to is gone: `run` settled failed, `job` as it is after that (a recurring
   * job advanced, a scheduled one-off paused), `end` what the failed run leaves of it (`runEnd`), and `alert`,
   * the sentence to the chat.
   */
  | { action: "fail"; job: JobRecord; run: RunRecord; end: RunEnd; alert: string };

/** A skip by hand moved to the chat's new zone: the run id it had, and the run it is now. */
export type MovedSkip = { was: string; run: RunRecord };

/** The memory records a fire may read, by id (what the chat's object found of the job's `memoryRefs`). */
export type MemoryLookup = ReadonlyMap<string, MemoryContent>;
const NO_MEMORY: MemoryLookup = new Map();

/** The next run of a cron job strictly after `after`, in the zone (null: none within 5 years, or unparsable). */
export function nextCronRun(cron: string, zone: string, after: number): number | null {
  const parsed = parseCron(cron);
  if (!parsed.ok) return null;
  return nextOccurrence(parsed.value, zone, after)?.at ?? null;
}

export { promptMessage };

/** A recurring job's schedule: a cron expression or a recurrence rule. */
export type RecurringSchedule = Exclude<StoredSchedule, { type: "at" } | { type: "hook" }>;

/**
 * The next run of a recurring schedule strictly after `after`, in the zone (null: none within 5 years, or
 * unparsable).
 */
export function nextRecurringRun(schedule: RecurringSchedule, zone: string, after: number): number | null {
  if (schedule.type === "cron") return nextCronRun(schedule.cron, zone, after);
  const parsed = parseRuleSchedule(schedule, zone);
  if (!parsed.ok) return null;
  return nextRuleOccurrence(parsed.value, zone, after)?.at ?? null;
}

/**
 * The occurrences of a job skipped by hand (docs/api.md#jobs), by due instant: what the job's history holds of them, as
 * `skipped` runs "skipped by hand". A decision that finds a job's next run anew (a zone change, resume, an edit of
 * its schedule) passes over them, so that what was skipped stays skipped whatever command comes after the skip.
 */
export type Skipped = ReadonlySet<number>;
export const NONE_SKIPPED: Skipped = new Set();

/** Whether a run of the history is an occurrence skipped by hand (not one skipped because a run was in flight). */
export const skippedByHand = (run: Pick<RunRecord, "status" | "detail">): boolean => run.status === "skipped" && run.detail === SKIPPED_BY_HAND;

/** `next`, or when that occurrence was skipped by hand, the first after it that was not (null: none within 5 years). */
export function pastSkipped(schedule: RecurringSchedule, zone: string, next: number | null, skipped: Skipped): number | null {
  let at = next;
  // Occurrences only grow, so each turn passes a different skip: at most `skipped.size` turns.
  while (at !== null && skipped.has(at)) at = nextRecurringRun(schedule, zone, at);
  return at;
}

/**
 * Where a recurring job goes from `after` (docs/time.md#jobs-that-end-until-and-runsleft): its next run, passing
 * over the occurrences `skipped` by hand, or `ended` when no run is left before its `until` (its next occurrence
 * falls after it, or none comes within 5 years). The end is a local time: its instant is the one it has in the
 * chat's zone now, so that a zone change keeps what was said.
 */
export function advance(
  job: Pick<JobRecord, "until">,
  schedule: RecurringSchedule,
  zone: string,
  after: number,
  skipped: Skipped = NONE_SKIPPED,
): { nextRunAt: number | null; ended: boolean } {
  const next = pastSkipped(schedule, zone, nextRecurringRun(schedule, zone, after), skipped);
  if (job.until !== null && (next === null || next > untilInstant(job.until, zone))) return { nextRunAt: null, ended: true };
  return { nextRunAt: next, ended: false };
}

function newRun(jobId: string, dueAt: number, now: number, manual: boolean, graceMs = LATE_AFTER_MS): RunRecord {
  return {
    runId: manual ? runIdOf(jobId, now) : runIdOf(jobId, dueAt),
    jobId,
    kind: "prompt",
    manual,
    dueAt,
    startedAt: null,
    finishedAt: null,
    state: "claimed",
    status: null,
    exitCode: null,
    timedOut: false,
    late: !manual && now - dueAt > graceMs,
    detail: null,
    leaseUntil: null,
    attempts: 0,
    resends: 0,
    payload: null,
    outputHash: null,
    via: null,
  };
}

/**
 * What to do with a job whose `nextRunAt` has come. A one-off's due instant is its `at` (its `nextRunAt`
 * may have been pushed by an undeliverable hold); a recurring job's is its `nextRunAt`, and it advances strictly
 * after now, never catching up. A recurring job that ends (docs/time.md#jobs-that-end-until-and-runsleft) counts the run claimed against its
 * `runsLeft` (run now and skipped occurrences do not count) and, with none left or its next occurrence past its
 * `until`, has no next run and `runsLeft` 0: this run is its last, and it is deleted when the run settles. Its next
 * run passes over the occurrences `skipped` by hand (the caller knows of them when one is next, see `Firing`).
 */
export function decideFire(job: JobRecord, ctx: FireContext, memory: MemoryLookup = NO_MEMORY, skipped: Skipped = NONE_SKIPPED): FireDecision {
  const { now, zone } = ctx;
  if (job.schedule.type === "at") return decideOneOff(job, job.schedule.at, ctx, memory);
  // A job only its hook runs has no time of its own: should one be found due, it keeps none.
  if (job.schedule.type === "hook") return { action: "hold", job: { ...job, nextRunAt: null } };
  const schedule = job.schedule;
  const dueAt = job.nextRunAt ?? now;
  // An occurrence past `until` never runs (an edit or a zone change keeps a job's next run before it).
  if (job.until !== null && dueAt > untilInstant(job.until, zone) && job.runningRunId === null) return { action: "end", job };
  if (ctx.deliverable && job.runningRunId === null) {
    const end = job.until === null ? null : untilInstant(job.until, zone);
    const next = (after: number) => {
      const t = pastSkipped(schedule, zone, nextRecurringRun(schedule, zone, after), skipped);
      return t !== null && end !== null && t > end ? null : t;
    };
    const plan = planMissed(job, dueAt, now, next);
    if (plan !== null) return decideMissed(job, schedule, plan, ctx, memory, skipped);
  }
  const step = advance(job, schedule, zone, now, skipped);
  const advanced: JobRecord = { ...job, nextRunAt: step.nextRunAt, ...(step.ended ? { runsLeft: 0 } : {}) };

  if (!ctx.deliverable) return step.ended && job.runningRunId === null ? { action: "end", job: advanced } : { action: "hold", job: advanced };

  if (job.runningRunId !== null) return { action: "skip", job: advanced, run: skippedRun(job, dueAt, now, "still running") };
  return claimRecurring(job, step, dueAt, ctx, memory, 0);
}

/**
 * The claim of a recurring job's occurrence `dueAt`, its next run `step`: a job that ends counts it against its
 * `runsLeft`; `count`, the occurrences missed (for the log, or the late line when it is more than one).
 */
function claimRecurring(
  job: JobRecord,
  step: { nextRunAt: number | null; ended: boolean },
  dueAt: number,
  ctx: FireContext,
  memory: MemoryLookup,
  count: number,
  lateLine = false,
): Extract<FireDecision, { action: "claim" | "fail" }> {
  const { now } = ctx;
  const advanced: JobRecord = { ...job, nextRunAt: step.nextRunAt, ...(step.ended ? { runsLeft: 0 } : {}) };
  const runsLeft = step.ended ? 0 : job.runsLeft === null ? null : Math.max(0, job.runsLeft - 1);
  const last = runsLeft === 0;
  const counted: JobRecord = { ...advanced, runsLeft, ...(last ? { nextRunAt: null } : {}) };
  const fresh = newRun(job.id, dueAt, now, false, job.graceSeconds * 1000);
  const refs = resolveRefs(job.kind === "prompt" ? job.memoryRefs : [], memory);
  if (!refs.ok) return failed(job, counted, fresh, refs.missing, now);
  const run = claimedRun(job, fresh, dueAt, ctx, refs.records, last, lateLine && count > 1 ? count : 0);
  return { action: "claim", job: { ...counted, runningRunId: run.runId, lastRunAt: now }, run, missed: count };
}

/** A recurring job's missed occurrences as its policy plans them (docs/time.md#missed-runs). */
function decideMissed(job: JobRecord, schedule: RecurringSchedule, plan: MissedPlan, ctx: FireContext, memory: MemoryLookup, skipped: Skipped): FireDecision {
  const { now, zone } = ctx;
  const recorded = plan.skip.map((t) => skippedRun(job, t, now, MISSED_DETAIL));
  if (plan.act === "none") {
    const step = advance(job, schedule, zone, now, skipped);
    if (step.ended) return { action: "end", job };
    return { action: "missed", job: { ...job, nextRunAt: step.nextRunAt }, skipped: recorded, ask: plan.ask, drop: false };
  }
  const decision = claimRecurring(job, advance(job, schedule, zone, plan.after, skipped), plan.dueAt, ctx, memory, plan.count, true);
  if (decision.action !== "claim") return decision;
  return { ...decision, ...(recorded.length > 0 ? { skipped: recorded } : {}), ...(plan.ask ? { ask: plan.ask } : {}) };
}

/**
 * `decideFire` for a one-off due at `at`. Missed (later than its grace): `once` runs it late, `skip` drops it, `ask`
 * pauses it and asks the chat (docs/time.md#missed-runs).
 */
function decideOneOff(job: JobRecord, at: number, ctx: FireContext, memory: MemoryLookup): FireDecision {
  const { now } = ctx;
  if (!ctx.deliverable) return { action: "hold", job: { ...job, nextRunAt: now + UNDELIVERABLE_RETRY_MS } };
  // A one-off whose time comes while a manual run of it is in flight waits for that run, then fires.
  if (job.runningRunId !== null) return { action: "hold", job: { ...job, nextRunAt: now + ONE_OFF_BUSY_RETRY_MS } };
  // Missed only at its own time: a one-off resumed after its time passed (a pause is not a miss) runs at once.
  if (job.nextRunAt === at && now - at > job.graceSeconds * 1000 && job.missed !== "once") {
    if (job.missed === "ask") {
      const ask = { first: at, last: at, total: 1, shown: [at] };
      return { action: "missed", job: { ...job, enabled: false, nextRunAt: null }, skipped: [], ask, drop: false };
    }
    return { action: "missed", job, skipped: [], ask: null, drop: true };
  }
  const fresh = newRun(job.id, at, now, false, job.graceSeconds * 1000);
  const refs = resolveRefs(job.kind === "prompt" ? job.memoryRefs : [], memory);
  const advanced: JobRecord = { ...job, nextRunAt: null };
  if (!refs.ok) return failed(job, advanced, fresh, refs.missing, now);
  const run = claimedRun(job, fresh, at, ctx, refs.records);
  return { action: "claim", job: { ...advanced, runningRunId: run.runId, lastRunAt: now }, run, missed: 0 };
}

/**
 * The `fail` decision for records that are gone: the run settled failed at once, the job after it (`base`, as
 * the run ends it: a one-off's scheduled run keeps it paused, a recurring job's last one ends it), and the alert.
 */
function failed(job: JobRecord, base: JobRecord, run: RunRecord, missing: string[], now: number): Extract<FireDecision, { action: "fail" }> {
  const settled: RunRecord = { ...run, state: "settled", status: "failed", detail: goneDetail(missing), startedAt: now, finishedAt: now, leaseUntil: null };
  const lastResult = { status: "failed" as const, at: new Date(now).toISOString() };
  const end = runEnd(base, run, "failed");
  const after = end === "pause" ? pausedOneOff(base) : base;
  return { action: "fail", job: { ...after, lastRunAt: now, lastResult }, run: settled, end, alert: memoryGoneText(job, missing, end) };
}

/**
 * A new run with what it will send: a prompt's queue message, or a watcher's call to the runner (its command,
 * timeout and zone as they are now; an edit never touches a run in flight), with the watcher's lease.
 */
function claimedRun(job: JobRecord, run: RunRecord, dueAt: number, ctx: FireContext, memory: readonly MemoryContent[], last = false, count = 0): RunRecord {
  const speedup = ctx.speedup ?? 1;
  if (job.kind === "watcher") {
    const timeoutSeconds = job.timeoutSeconds ?? ctx.defaultTimeout;
    return {
      ...run,
      kind: "watcher",
      leaseUntil: ctx.now + watcherLeaseMs(timeoutSeconds, speedup),
      payload: { kind: "watcher", call: { command: job.command ?? "", timeoutSeconds, timeZone: ctx.zone } },
    };
  }
  const message = promptMessage(job, run.runId, dueAt, ctx, run.late, memory, last, count);
  return { ...run, leaseUntil: ctx.now + leaseMs(PROMPT_LEASE_MS, speedup), payload: { kind: "prompt", message } };
}

/**
 * Whether `run` is the job's last (docs/time.md#jobs-that-end-until-and-runsleft, docs/api.md#how-a-job-fires): a one-off's scheduled run, or any run that settles once a
 * recurring job has no run left (`runsLeft` 0, set when its last scheduled run was claimed, or when its next
 * occurrence fell past `until` while a run was in flight).
 */
export const endsJob = (job: JobRecord, run: Pick<RunRecord, "manual" | "dueAt">): boolean =>
  job.schedule.type === "at" ? !run.manual && job.schedule.at === run.dueAt : job.runsLeft === 0;

/** Statuses after which a one-off's scheduled run keeps the job, paused, instead of deleting it. */
const KEEPS_ONE_OFF: ReadonlySet<RunStatus> = new Set(["failed", "over_budget"]);

/** What a run leaves of its job. */
export type RunEnd = "delete" | "pause" | "keep";

/**
 * What a run that ends with `status` leaves of its job (docs/time.md#jobs-that-end-until-and-runsleft, docs/api.md#how-a-job-fires), the one rule of how a run ends, for
 * the firing core (a prompt whose memory records are gone) and the settler (every other end): a one-off's
 * scheduled run deletes it, unless it failed or its match was over the day's budget, which keeps the job paused
 * with its history (and the chat told); a recurring job's last run deletes it whatever its status (its schedule
 * is over: there is nothing to resume); any other run leaves the job to its schedule.
 */
export function runEnd(job: JobRecord, run: Pick<RunRecord, "manual" | "dueAt">, status: RunStatus): RunEnd {
  if (!endsJob(job, run)) return "keep";
  if (job.schedule.type !== "at") return "delete";
  return KEEPS_ONE_OFF.has(status) ? "pause" : "delete";
}

/** A one-off kept after its scheduled run ended so: paused, with no next run. */
export const pausedOneOff = (job: JobRecord): JobRecord => ({ ...job, enabled: false, nextRunAt: null });

/**
 * Run now (docs/api.md#how-a-job-fires): a manual run `<jobId>:<now>`, claimed, or failed at once when a memory record it
 * refers to is gone; nothing is deleted or rescheduled.
 */
export function manualRun(job: JobRecord, ctx: FireContext, memory: MemoryLookup = NO_MEMORY): Extract<FireDecision, { action: "claim" | "fail" }> {
  const fresh = newRun(job.id, ctx.now, ctx.now, true);
  const refs = resolveRefs(job.kind === "prompt" ? job.memoryRefs : [], memory);
  if (!refs.ok) return failed(job, job, fresh, refs.missing, ctx.now);
  const run = claimedRun(job, fresh, ctx.now, ctx, refs.records);
  return { action: "claim", job: { ...job, runningRunId: run.runId, lastRunAt: ctx.now }, run, missed: 0 };
}

/**
 * Run now under a message about missed runs (docs/time.md#missed-runs): the latest missed occurrence, `last`, claimed
 * late (not manual: a one-off's run is its last, and it is deleted when the run ends), its late line counting the
 * `count` occurrences missed; a one-off paused while the chat was asked is no longer paused. Nothing of the job's
 * schedule moves. Or failed at once, as run now would, when a memory record it refers to is gone.
 */
export function missedRun(
  job: JobRecord,
  ctx: FireContext,
  last: number,
  count: number,
  memory: MemoryLookup = NO_MEMORY,
): Extract<FireDecision, { action: "claim" | "fail" }> {
  const fresh = newRun(job.id, last, ctx.now, false, job.graceSeconds * 1000);
  const base: JobRecord = job.schedule.type === "at" ? { ...job, enabled: true, nextRunAt: null } : job;
  const refs = resolveRefs(job.kind === "prompt" ? job.memoryRefs : [], memory);
  if (!refs.ok) return failed(job, base, fresh, refs.missing, ctx.now);
  const run = claimedRun(job, fresh, last, ctx, refs.records, false, count);
  return { action: "claim", job: { ...base, runningRunId: run.runId, lastRunAt: ctx.now }, run, missed: count };
}

/** A call of a job's hook, or a mail to it, as its run takes it (docs/hooks.md): the run id it was given, and its input. */
export type HookCall = { runId: string; acceptedAt: number; via: RunVia; input: string };

/**
 * A run its hook woke (docs/hooks.md): claimed under the run id the call was given (its instant of acceptance), not
 * manual, with the input: after a prompt job's text under the line that says where it came from, or on a watcher's
 * standard input. Or failed at once, as run now would, when a memory record it refers to is gone. Nothing of the
 * job's schedule moves.
 */
export function hookRun(
  job: JobRecord,
  ctx: FireContext,
  call: HookCall,
  memory: MemoryLookup = NO_MEMORY,
): Extract<FireDecision, { action: "claim" | "fail" }> {
  const fresh: RunRecord = { ...newRun(job.id, call.acceptedAt, ctx.now, false), runId: call.runId, late: false, via: call.via };
  const refs = resolveRefs(job.kind === "prompt" ? job.memoryRefs : [], memory);
  if (!refs.ok) return failed(job, job, fresh, refs.missing, ctx.now);
  const woken: JobRecord = job.kind === "prompt" ? { ...job, text: withInput(job.text ?? "", call.via, call.input) } : job;
  const run = claimedRun(woken, fresh, call.acceptedAt, ctx, refs.records);
  const withStdin: RunRecord =
    run.payload?.kind === "watcher" ? { ...run, payload: { kind: "watcher", call: { ...run.payload.call, stdin: call.input } } } : run;
  return { action: "claim", job: { ...job, runningRunId: run.runId, lastRunAt: ctx.now }, run: withStdin, missed: 0 };
}

/** The settled `skipped` run of the occurrence due at `dueAt`, with why it was skipped. */
export function skippedRun(job: JobRecord, dueAt: number, now: number, detail: string): RunRecord {
  return {
    ...newRun(job.id, dueAt, now, false),
    kind: job.kind,
    state: "settled",
    status: "skipped",
    detail,
    startedAt: now,
    finishedAt: now,
    leaseUntil: null,
  };
}
