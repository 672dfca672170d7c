/**
 * @module Firing decisions (DESIGN §5) as pure functions of a due job, `now` and the chat's circumstances:
 * claim a run (a prompt for the queue, or a watcher's call to the runner), record an overlap as skipped, hold
 * an undeliverable chat's job, or fail a prompt whose memory records are gone. A prompt carries the current
 * content of its memory records (read by the caller at claim time, never a snapshot). The Durable Object
 * writes what these return and sends what they build.
 */
import type { PromptMessage } from "../contracts/prompt-message";
import type { RunStatus } from "../schemas/jobs";
import type { JobRecord, RunRecord } from "./records";
import { nextOccurrence, parseCron } from "../time";
import { goneDetail, MEMORY_PROMPT_CHARS, memoryGoneText, memorySection, resolveRefs, type MemoryContent } from "./memory";
import { LATE_AFTER_MS, promptText } from "./texts";
import { MAX_PROMPT_MESSAGE_BYTES, watcherLeaseMs } from "./watcher";

/** A prompt's lease: how long an agent has to settle it (DESIGN §5). */
export const PROMPT_LEASE_MS = 10 * 60_000;
/** A sent prompt (a job's or a user's) must reach the run gate this soon, or it is sent again (DESIGN §5). */
export const OFFER_DEADLINE_MS = 2 * 60_000;
/** A prompt that never reaches the run gate is sent again at most this often, then it has failed. */
export const MAX_RESENDS = 3;
/** An undeliverable chat's one-off is retried this often. */
export const UNDELIVERABLE_RETRY_MS = 60 * 60_000;
/** A one-off due while a manual run of it is in flight looks again this often. */
export const ONE_OFF_BUSY_RETRY_MS = 60_000;
/** The most missed occurrences counted for the log line. */
const MISSED_COUNT_CAP = 1000;

/** `defaultTimeout`: a watcher's timeout in seconds when the job sets none (DEFAULT_SCRIPT_TIMEOUT). */
export type FireContext = { chatId: string; zone: string; now: number; deliverable: boolean; defaultTimeout: number };

export type FireDecision =
  /**
   * Claim: write `run` (claimed, with what it sends: the prompt, or the watcher's call to the runner) and
   * `job` together, then dispatch.
   */
  | { action: "claim"; job: JobRecord; run: RunRecord; missed: number }
  /** An occurrence while a run is in flight: history gets a `skipped` run; `lastResult` stays. */
  | { action: "skip"; job: JobRecord; run: RunRecord }
  /** Undeliverable chat: no run; a cron job advances, a one-off waits an hour. */
  | { action: "hold"; job: JobRecord }
  /**
   * A memory record the prompt refers to is gone: `run` settled failed, `job` as it is after that (a cron job
   * advanced, a scheduled one-off paused), and `alert`, the sentence to the chat.
   */
  | { action: "fail"; job: JobRecord; run: RunRecord; alert: string };

/** The memory records a fire may read, by id (what the chat's object found of the job's `memoryRefs`). */
export type MemoryLookup = ReadonlyMap<string, MemoryContent>;
const NO_MEMORY: MemoryLookup = new Map();

/** The next run of a cron job strictly after `after`, in the zone (null: none within 5 years, or unparsable). */
export function nextCronRun(cron: string, zone: string, after: number): number | null {
  const parsed = parseCron(cron);
  if (!parsed.ok) return null;
  return nextOccurrence(parsed.value, zone, after)?.at ?? null;
}

/** Occurrences between the due one and now that will never run (cron does not catch up). */
function missedSince(cron: string, zone: string, dueAt: number, now: number): number {
  if (now - dueAt <= LATE_AFTER_MS) return 0;
  let missed = 0;
  let t = nextCronRun(cron, zone, dueAt);
  while (t !== null && t <= now && missed < MISSED_COUNT_CAP) {
    missed++;
    t = nextCronRun(cron, zone, t);
  }
  return missed;
}

/** The run id of an occurrence: `<jobId>:<dueAt epoch ms>` (run now uses now). */
const runIdOf = (jobId: string, dueAt: number): string => `${jobId}:${dueAt}`;

/**
 * The v1 queue message of a prompt run (DESIGN §7): text with header and late note, then the memory records
 * the job refers to. Their content is cut until the message serializes within the queue's limit.
 */
export function promptMessage(job: JobRecord, runId: string, dueAt: number, ctx: FireContext, late: boolean, memory: readonly MemoryContent[] = []): PromptMessage {
  const body = job.text ?? "";
  const head = promptText({ id: job.id, name: job.name, text: body }, late ? { dueAt, zone: ctx.zone } : null);
  const build = (budget: number): PromptMessage => {
    const section = memorySection(memory, budget);
    return {
      v: 1,
      key: runId,
      chatId: ctx.chatId,
      timeZone: ctx.zone,
      source: "job",
      jobId: job.id,
      jobName: job.name,
      runId,
      text: section === "" ? head : `${head}\n\n${section}`,
      body,
      ...(late ? { late: true } : {}),
      firedAt: new Date(ctx.now).toISOString(),
      dueAt: new Date(dueAt).toISOString(),
      // Its topic: a follow-up it makes goes there too.
      ...(job.threadId !== null ? { threadId: job.threadId } : {}),
    };
  };
  // Control characters take six bytes each in JSON and a character up to three in UTF-8: halve until it fits.
  for (let budget = MEMORY_PROMPT_CHARS; ; budget = Math.floor(budget / 2)) {
    const message = build(budget);
    if (memory.length === 0 || budget < 64 || new TextEncoder().encode(JSON.stringify(message)).length <= MAX_PROMPT_MESSAGE_BYTES) return message;
  }
}

function newRun(jobId: string, dueAt: number, now: number, manual: boolean): RunRecord {
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
    late: !manual && now - dueAt > LATE_AFTER_MS,
    detail: null,
    leaseUntil: now + PROMPT_LEASE_MS,
    attempts: 0,
    resends: 0,
    payload: null,
    outputHash: null,
  };
}

/**
 * What to do with a job whose `nextRunAt` has come. A one-off's due instant is its `at` (its `nextRunAt`
 * may have been pushed by an undeliverable hold); a cron job's is its `nextRunAt`, and it advances strictly
 * after now, never catching up.
 */
export function decideFire(job: JobRecord, ctx: FireContext, memory: MemoryLookup = NO_MEMORY): FireDecision {
  const { now, zone } = ctx;
  const isCron = job.schedule.type === "cron";
  const dueAt = job.schedule.type === "at" ? job.schedule.at : (job.nextRunAt ?? now);
  const advanced: JobRecord = {
    ...job,
    nextRunAt: job.schedule.type === "cron" ? nextCronRun(job.schedule.cron, zone, now) : null,
  };

  if (!ctx.deliverable) {
    return { action: "hold", job: isCron ? advanced : { ...job, nextRunAt: now + UNDELIVERABLE_RETRY_MS } };
  }

  if (job.runningRunId !== null && !isCron) {
    // A one-off whose time comes while a manual run of it is in flight waits for that run, then fires.
    return { action: "hold", job: { ...job, nextRunAt: now + ONE_OFF_BUSY_RETRY_MS } };
  }

  if (job.runningRunId !== null) {
    const run: RunRecord = {
      ...newRun(job.id, dueAt, now, false),
      kind: job.kind,
      state: "settled",
      status: "skipped",
      detail: "still running",
      startedAt: now,
      finishedAt: now,
      leaseUntil: null,
    };
    return { action: "skip", job: advanced, run };
  }

  const fresh = newRun(job.id, dueAt, now, false);
  const refs = resolveRefs(job.kind === "prompt" ? job.memoryRefs : [], memory);
  if (!refs.ok) return failed(job, isCron ? advanced : job, fresh, refs.missing, now);
  const run = claimedRun(job, fresh, dueAt, ctx, refs.records);
  const missed = job.schedule.type === "cron" ? missedSince(job.schedule.cron, zone, dueAt, now) : 0;
  return { action: "claim", job: { ...advanced, runningRunId: run.runId, lastRunAt: now }, run, missed };
}

/**
 * The `fail` decision for records that are gone: the run settled failed at once, the job after it (`base`, as
 * the run ends it: a one-off's scheduled run keeps it paused), and the alert.
 */
function failed(job: JobRecord, base: JobRecord, run: RunRecord, missing: string[], now: number): Extract<FireDecision, { action: "fail" }> {
  const settled: RunRecord = { ...run, state: "settled", status: "failed", detail: goneDetail(missing), startedAt: now, finishedAt: now, leaseUntil: null };
  const lastResult = { status: "failed" as const, at: new Date(now).toISOString() };
  const paused = runEnd(job, run, "failed") === "pause";
  const after = paused ? pausedOneOff(base) : base;
  return { action: "fail", job: { ...after, lastRunAt: now, lastResult }, run: settled, alert: memoryGoneText(job, missing, paused) };
}

/**
 * A new run with what it will send: a prompt's queue message, or a watcher's call to the runner (its command,
 * timeout and zone as they are now; an edit never touches a run in flight), with the watcher's lease.
 */
function claimedRun(job: JobRecord, run: RunRecord, dueAt: number, ctx: FireContext, memory: readonly MemoryContent[]): RunRecord {
  if (job.kind === "watcher") {
    const timeoutSeconds = job.timeoutSeconds ?? ctx.defaultTimeout;
    return {
      ...run,
      kind: "watcher",
      leaseUntil: ctx.now + watcherLeaseMs(timeoutSeconds),
      payload: { kind: "watcher", call: { command: job.command ?? "", timeoutSeconds, timeZone: ctx.zone } },
    };
  }
  return { ...run, payload: { kind: "prompt", message: promptMessage(job, run.runId, dueAt, ctx, run.late, memory) } };
}

/** Whether `run` is the scheduled run of a one-off job, after which the job is deleted (DESIGN §5). */
export const endsOneOff = (job: JobRecord, run: Pick<RunRecord, "manual" | "dueAt">): boolean =>
  !run.manual && job.schedule.type === "at" && job.schedule.at === run.dueAt;

/** Statuses after which a one-off's scheduled run keeps the job, paused, instead of deleting it. */
const KEEPS_ONE_OFF: ReadonlySet<RunStatus> = new Set(["failed", "over_budget"]);

/**
 * What a run that ends with `status` leaves of its job (DESIGN §5), the one rule of how a run ends, for the
 * firing core (a prompt whose memory records are gone) and the settler (every other end): a one-off's
 * scheduled run deletes it, unless it failed or its match was over the day's budget, which keeps the job
 * paused with its history (and the chat told); any other run leaves the job to its schedule.
 */
export function runEnd(job: JobRecord, run: Pick<RunRecord, "manual" | "dueAt">, status: RunStatus): "delete" | "pause" | "keep" {
  if (!endsOneOff(job, run)) return "keep";
  return KEEPS_ONE_OFF.has(status) ? "pause" : "delete";
}

/** A one-off kept after its scheduled run ended so: paused, with no next run. */
export const pausedOneOff = (job: JobRecord): JobRecord => ({ ...job, enabled: false, nextRunAt: null });

/**
 * Run now (DESIGN §5): a manual run `<jobId>:<now>`, claimed, or failed at once when a memory record it
 * refers to is gone; nothing is deleted or rescheduled.
 */
export function manualRun(job: JobRecord, ctx: FireContext, memory: MemoryLookup = NO_MEMORY): Extract<FireDecision, { action: "claim" | "fail" }> {
  const fresh = newRun(job.id, ctx.now, ctx.now, true);
  const refs = resolveRefs(job.kind === "prompt" ? job.memoryRefs : [], memory);
  if (!refs.ok) return failed(job, job, fresh, refs.missing, ctx.now);
  const run = claimedRun(job, fresh, ctx.now, ctx, refs.records);
  return { action: "claim", job: { ...job, runningRunId: run.runId, lastRunAt: ctx.now }, run, missed: 0 };
}
