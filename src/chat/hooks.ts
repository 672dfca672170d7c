/**
 * @module A job's hook (docs/hooks.md): made, replaced and revoked (the token shown once, its hash kept), and the calls
 * and mails it takes. A call is checked in one synchronous step (the job paused, its key seen within 24 hours, the
 * hourly limit, the calls already waiting), given its run id (the instant it was accepted, a millisecond later while
 * that id is taken), and then either claimed at once as the job's run, or kept waiting with its input until the run
 * in flight ends (the alarm claims it then). A run it makes goes the way a timed run goes: a watcher's script decides
 * on the input, a prompt job's wakes the agent within the chat's MAX_WAKEUPS_PER_DAY.
 */
import type { Config } from "../config";
import { runIdOf } from "../contracts/run-id";
import { type HookAnswer, type HookCallInput, type HookReject, NO_HOOK } from "../hooks/answer";
import { runInput } from "../hooks/input";
import { hookHash, newHookToken } from "../hooks/token";
import { type FireContext, type HookCall, hookRun } from "../jobs/fire";
import type { JobRecord, RunRecord } from "../jobs/records";
import { noJobText, pausedJobText } from "../jobs/texts";
import { overBudgetText } from "../jobs/watcher";
import { err, ok, type Result } from "../result";
import { formatLocalDay } from "../time";
import type { Deliveries } from "./deliveries";
import type { Firing } from "./firing";
import type { ChatInfo } from "./info";
import { HOUR_MS, type HookStore } from "./store/hooks";
import type { JobStore } from "./store/jobs";
import type { MemoryStore } from "./store/memory";
import type { RunStore } from "./store/runs";
import type { UsageStore } from "./store/usage";

/** At most this many calls of a job wait while one of its runs is in flight (docs/hooks.md). */
export const MAX_WAITING = 20;
/** At most this many calls and mails a hook accepts in an hour. */
export const MAX_PER_HOUR = 60;
/** What `Retry-After` says to a call refused because too many wait: about the time a run takes to settle. */
export const WAITING_RETRY_SECONDS = 60;

export type HookDeps = {
  jobs: JobStore;
  runs: RunStore;
  hooks: HookStore;
  usage: UsageStore;
  memory: MemoryStore;
  info: ChatInfo;
  firing: Firing;
  deliveries: Deliveries;
  config: () => Config;
  now: () => number;
  transaction: <T>(work: () => T) => T;
};

/** What accepting a call decided, in its synchronous step: the answer, and a run claimed now (to send). */
type Taken = { answer: HookAnswer; claimed: RunRecord | null };

export class Hooks {
  constructor(private readonly d: HookDeps) {}

  /** The job `id` of the object bound to `chatId`, or why not. */
  private locate(chatId: string, id: string): Result<JobRecord> {
    const bound = this.d.info.bind(chatId);
    if (!bound.ok) return bound;
    const job = this.d.jobs.get(id);
    return job ? ok(job) : err("not_found", noJobText(id));
  }

  /**
   * Makes or replaces the job's hook: a new token, whose hash is all that is kept; the token is returned once, for the
   * caller to show as the hook's URL and address. A call with the old token finds nothing from now on.
   */
  async make(chatId: string, id: string): Promise<Result<{ token: string }>> {
    const token = newHookToken();
    const hash = await hookHash(token);
    const found = this.locate(chatId, id);
    if (!found.ok) return found;
    this.d.jobs.save({ ...found.value, hook: hash });
    return ok({ token });
  }

  /** Revokes the job's hook (nothing to do when it has none). Calls it accepted before still run. */
  revoke(chatId: string, id: string): Result<{ had: boolean }> {
    const found = this.locate(chatId, id);
    if (!found.ok) return found;
    if (found.value.hook === null) return ok({ had: false });
    this.d.jobs.save({ ...found.value, hook: null });
    return ok({ had: true });
  }

  /**
   * A call of the hook whose token hashes to `hash`, or a mail to it: accepted (202 with its run id; the same key
   * within 24 hours answers the first call's run id again and runs nothing) or refused (unknown, paused, too many).
   */
  async call(chatId: string, hash: string, input: HookCallInput): Promise<HookAnswer> {
    if (this.d.info.chatId() !== chatId) return reject("not_found");
    const now = this.d.now();
    const taken = this.d.transaction((): Taken => this.accept(hash, input, now));
    this.d.deliveries.flush();
    if (taken.claimed !== null && taken.claimed.state === "claimed") await this.d.firing.dispatch(now);
    return taken.answer;
  }

  private accept(hash: string, input: HookCallInput, now: number): Taken {
    const job = this.d.jobs.byHook(hash);
    if (job === null) return { answer: reject("not_found"), claimed: null };
    // A repeat of an accepted call is answered as it was, whatever came since (a pause): a retry is the normal case.
    if (input.key !== null) {
      const first = this.d.hooks.runOfKey(job.id, input.key, now);
      if (first !== null) return { answer: { ok: true, value: { runId: first, replayed: true } }, claimed: null };
    }
    if (!job.enabled) return { answer: reject("conflict", pausedJobText(job.id).sentence), claimed: null };
    const hour = this.d.hooks.lastHour(job.id, now);
    if (hour.n >= MAX_PER_HOUR) {
      const retryAfter = Math.max(1, Math.ceil(((hour.oldest ?? now) + HOUR_MS - now) / 1000));
      return { answer: reject("rate_limited", hourlyLimitText(job.id), retryAfter), claimed: null };
    }
    const waiting = this.d.hooks.waitingCount(job.id);
    const busy = job.runningRunId !== null || waiting > 0;
    if (busy && waiting >= MAX_WAITING) return { answer: reject("rate_limited", tooManyWaitingText(job.id), WAITING_RETRY_SECONDS), claimed: null };
    let at = now;
    while (this.d.runs.exists(runIdOf(job.id, at)) || this.d.hooks.taken(runIdOf(job.id, at))) at++;
    const call: HookCall = { runId: runIdOf(job.id, at), acceptedAt: at, via: input.via, input: runInput(input.text) };
    this.d.hooks.accepted(job.id, call.runId, input.key, now);
    if (busy) {
      this.d.hooks.wait({ ...call, jobId: job.id });
      return { answer: { ok: true, value: { runId: call.runId, replayed: false } }, claimed: null };
    }
    return { answer: { ok: true, value: { runId: call.runId, replayed: false } }, claimed: this.start(job, call, now) };
  }

  /**
   * The call's run, claimed now, inside the caller's transaction: a prompt job's within the day's wake-ups (past them
   * it is recorded `over_budget`, with the day's one notice); a watcher's always (its match is counted as any match).
   */
  private start(job: JobRecord, call: HookCall, now: number): RunRecord {
    const ctx = this.context(now);
    if (job.kind === "prompt") {
      const day = formatLocalDay(now, ctx.zone);
      const used = this.d.usage.get(day, "wakeups");
      const max = this.d.config().maxWakeupsPerDay;
      if (used.n >= max) return this.overBudget(job, call, day, used.noticed, max, now);
      this.d.usage.increment(day, "wakeups");
    }
    const memory = job.kind === "prompt" && job.memoryRefs.length > 0 ? this.d.memory.some(job.memoryRefs) : new Map();
    const decision = hookRun(job, ctx, call, memory);
    this.d.firing.apply(decision, now);
    return decision.run;
  }

  /** A prompt job's call past the day's wake-ups: its run recorded `over_budget`, and the day's one notice. */
  private overBudget(job: JobRecord, call: HookCall, day: string, noticed: boolean, max: number, now: number): RunRecord {
    const run: RunRecord = {
      ...hookRun(job, this.context(now), call).run,
      kind: "prompt",
      state: "settled",
      status: "over_budget",
      detail: `over the day's ${max} wake-ups`,
      startedAt: now,
      finishedAt: now,
      leaseUntil: null,
      payload: null,
    };
    this.d.runs.insert(run);
    this.d.jobs.markSettled(job.id, run.runId, { status: "over_budget", at: new Date(now).toISOString() });
    this.d.runs.prune(job.id);
    if (!noticed) {
      this.d.usage.markNoticed(day, "wakeups");
      this.d.deliveries.write(run.runId, overBudgetText(job, max, "hook"), {
        origin: { source: "alert", jobId: job.id, runId: run.runId },
        now,
        silent: job.silent,
      });
    }
    return run;
  }

  private context(now: number): FireContext {
    const config = this.d.config();
    return {
      chatId: this.d.info.chatId() ?? "",
      zone: this.d.info.zone().zone,
      now,
      deliverable: true,
      defaultTimeout: config.defaultScriptTimeout,
      speedup: config.speedup,
      language: this.d.info.language(),
    };
  }

  /** When the alarm should come for a waiting call whose job is free (at once). */
  soonest(): number | null {
    return this.d.hooks.soonest();
  }

  /** The alarm's part: each free job's first waiting call claimed (then sent by the firing's dispatch). */
  async tick(now: number): Promise<boolean> {
    const ready = this.d.hooks.ready();
    if (ready.length === 0) return false;
    let failed = false;
    for (const call of ready) {
      try {
        this.d.transaction(() => {
          this.d.hooks.take(call.runId);
          const job = this.d.jobs.get(call.jobId);
          if (job !== null && job.runningRunId === null) this.start(job, call, now);
        });
      } catch (error) {
        failed = true;
        console.error(`hook call ${call.runId} could not start`, error);
      }
    }
    this.d.hooks.dropOrphans();
    this.d.deliveries.flush();
    return (await this.d.firing.dispatch(now)) || failed;
  }
}

function reject(code: HookReject["code"], message?: string, retryAfter?: number): HookAnswer {
  return { ok: false, error: { code, message: message ?? NO_HOOK, ...(retryAfter === undefined ? {} : { retryAfter }) } };
}

const hourlyLimitText = (id: string) => `Job ${id}'s hook took ${MAX_PER_HOUR} calls in the last hour, its limit; try again later.`;
const tooManyWaitingText = (id: string) => `Job ${id} already has ${MAX_WAITING} calls waiting for its run in flight; try again later.`;
