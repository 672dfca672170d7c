/**
 * @module A chat's watchers at run time (docs/api.md, docs/watchers.md): starting claimed watcher runs on the runner, taking
 * its outcome (silent; matched → the run becomes one prompt for the agent, unless it is unchanged for an
 * `onlyOnChange` watcher or over the chat's daily wake-ups; failed → an alert once per failure streak; exit
 * 75 → transient, tried again next time), the lease that turns a lost run into "timed out", and killing a run
 * that is cancelled. Output is redacted before anything is stored, queued or delivered. Sending a matched
 * run's prompt is the caller's (firing's) part: this one only claims it.
 */

import { backoffMs } from "../backoff";
import { errorsFor, type LoadedConfig, leaseMs } from "../config";
import type { PromptMessage } from "../contracts/prompt-message";
import { type RunnerOutcome, runnerRunId } from "../contracts/runner";
import { endsJob, PROMPT_LEASE_MS } from "../jobs/fire";
import type { JobRecord, RunRecord } from "../jobs/records";
import {
  alertText,
  boundTail,
  decideMatch,
  type Failure,
  fitOutput,
  isNewFailure,
  isTransient,
  matchedPromptText,
  outputHash,
  overBudgetText,
  WATCHER_LEASE_GRACE_MS,
  watcherLeaseMs,
} from "../jobs/watcher";
import { callbackUrl, cancelRun, RUNNER_SETUP, runnerFetcher, startRun } from "../runner-client/client";
import { redact, secretsOf } from "../runner-client/redact";
import type { LastResult } from "../schemas/jobs";
import { formatLocalDay } from "../time";
import type { Deliveries } from "./deliveries";
import type { ChatInfo } from "./info";
import type { RunSettler } from "./settle";
import type { JobStore } from "./store/jobs";
import type { RunStore } from "./store/runs";
import type { UsageStore } from "./store/usage";

/** Starting a run is tried this many times (unreachable, 5xx) before it fails "did not start". */
const START_ATTEMPTS = 3;
/** Waits between start attempts: 5 s, 10 s, 20 s … at most a minute. */
const START_BACKOFF = { baseMs: 5_000, maxMs: 60_000 };

/**
 * How a watcher's run ends without reaching the agent: silent (`unchanged`: a match equal to the last
 * delivered one), failed (also when it never started or its lease ran out), transient (exit 75), or a match
 * over the day's budget (with the day's one notice, when it has not gone out yet).
 */
type Ending =
  | { status: "silent"; detail: string | null }
  | { status: "failed"; failure: Failure; detail: string }
  | { status: "transient"; failure: Failure; detail: string }
  | { status: "over_budget"; detail: string; noticeDay: string | null };

export type WatcherDeps = {
  jobs: JobStore;
  runs: RunStore;
  info: ChatInfo;
  deliveries: Deliveries;
  /** The per-day counters: `wakeups`, the matches that woke the agent (MAX_WAKEUPS_PER_DAY). */
  usage: UsageStore;
  settler: RunSettler;
  /** The object's env and its config, read on each use (tests replace vars on the live instance). */
  env: () => Env;
  config: () => LoadedConfig;
  now: () => number;
  transaction: <T>(work: () => T) => T;
  waitUntil: (promise: Promise<unknown>) => void;
};

export class Watchers {
  constructor(private readonly d: WatcherDeps) {}

  private secrets(): string[] {
    return secretsOf(this.d.config().config);
  }

  /** Starts claimed watcher runs on the runner; true when one must be tried again later. */
  async start(runs: readonly RunRecord[], now: number): Promise<boolean> {
    const chatId = this.d.info.chatId();
    if (runs.length === 0 || chatId === null) return false;
    const loaded = this.d.config();
    const config = loaded.config;
    const misconfigured = errorsFor(loaded, "watchers");
    const fetcher = runnerFetcher(this.d.env(), config, chatId);
    const secret = config.runner.secret;
    const results = await Promise.all(
      runs.map(async (run) => {
        if (run.payload?.kind !== "watcher") return false;
        const call = run.payload.call;
        if (misconfigured.length > 0) {
          this.end(run.runId, didNotStart(misconfigured.join(" ")), now);
          return false;
        }
        if (fetcher === null || secret === null) {
          this.end(run.runId, didNotStart(`no runner is configured (${RUNNER_SETUP})`), now);
          return false;
        }
        const started = await startRun(fetcher, secret, {
          runId: runnerRunId(chatId, run.runId),
          chatId,
          jobId: run.jobId,
          command: call.command,
          timeoutSeconds: call.timeoutSeconds,
          timeZone: call.timeZone,
          callbackUrl: callbackUrl(config, chatId),
          // A run its hook woke: the script reads the input on stdin (closed otherwise).
          ...(call.stdin === undefined ? {} : { stdin: call.stdin }),
        });
        const at = this.d.now();
        if (started.kind === "started") {
          // Cancelled (or its chat erased) while the start was on its way: the cancel may have reached the
          // runner first and found nothing, so stop the script now.
          if (!this.d.runs.exists(run.runId)) await cancelRun(fetcher, secret, runnerRunId(chatId, run.runId));
          else this.d.runs.markStarted(run.runId, at, at + watcherLeaseMs(call.timeoutSeconds, config.speedup));
          return false;
        }
        // A busy runner is waited for until the run could no longer finish within its lease from its due
        // time; an unreachable or failing one is tried three times.
        const retryAt = at + backoffMs(run.attempts, START_BACKOFF);
        const waitBusy = started.kind === "busy" && retryAt < run.dueAt + watcherLeaseMs(call.timeoutSeconds, config.speedup);
        if (waitBusy || (started.kind === "retry" && run.attempts + 1 < START_ATTEMPTS)) {
          this.d.runs.deferClaimed([run.runId], retryAt);
          console.error(`watcher run ${run.runId} did not start yet: ${started.reason}`);
          return true;
        }
        this.end(run.runId, didNotStart(started.reason), at);
        return false;
      }),
    );
    return results.some(Boolean);
  }

  /**
   * The runner's outcome of `runId`. Only a run still waiting for the runner takes it: an unknown, settled
   * or cancelled run (or one already handed to the agent) ignores it. True when it was taken; a match that
   * wakes the agent is then a claimed prompt, for the caller to send.
   */
  async outcome(runId: string, outcome: RunnerOutcome, now: number): Promise<boolean> {
    if (outcome.status === "silent") return this.end(runId, { status: "silent", detail: null }, now);
    if (outcome.status === "failed") {
      const failure: Failure = { exitCode: outcome.exitCode, timedOut: outcome.timedOut, tail: outcome.stderrTail, didNotStart: false };
      if (isTransient(failure)) return this.end(runId, { status: "transient", failure, detail: `exit ${failure.exitCode}: tried again next time` }, now);
      return this.end(runId, { status: "failed", failure, detail: outcome.timedOut ? "timed out" : `exit ${outcome.exitCode ?? "?"}` }, now);
    }
    const stdout = redact(outcome.stdout, this.secrets());
    const hash = await outputHash(stdout);
    const zone = this.d.info.zone().zone;
    const day = formatLocalDay(now, zone);
    const max = this.d.config().config.maxWakeupsPerDay;
    const taken = this.d.transaction((): boolean => {
      const run = this.waiting(runId);
      const job = run ? this.d.jobs.get(run.jobId) : null;
      if (!run || !job) return false;
      const used = this.d.usage.get(day, "wakeups");
      const decision = decideMatch(job, hash, used.n, max);
      // Not woken: the run ends here, with the run and job just read.
      if (decision === "unchanged") return this.endWaiting(run, job, { status: "silent", detail: "unchanged" }, now);
      if (decision === "over_budget")
        return this.endWaiting(run, job, { status: "over_budget", detail: `over the day's ${max} wake-ups`, noticeDay: used.noticed ? null : day }, now);
      this.d.usage.increment(day, "wakeups");
      const chatId = this.d.info.chatId() ?? outcome.chatId;
      const firedAt = new Date(now).toISOString();
      const message = fitOutput(
        stdout,
        (body): PromptMessage => ({
          v: 1,
          key: runId,
          chatId,
          timeZone: zone,
          source: "watcher",
          jobId: job.id,
          jobName: job.name,
          runId,
          text: matchedPromptText(job, body),
          body,
          firedAt,
          dueAt: new Date(run.dueAt).toISOString(),
          ...(job.threadId !== null ? { threadId: job.threadId } : {}),
        }),
      );
      // In flight until the agent settles it: sent like a claimed prompt, settled through the run gate.
      this.d.runs.claimAsPrompt(runId, message, now + leaseMs(PROMPT_LEASE_MS, this.d.config().config.speedup), hash);
      return true;
    });
    this.d.deliveries.flush();
    return taken;
  }

  /** A watcher's run whose lease ran out with no outcome: failed, timed out; the runner is told to stop it. */
  expire(run: RunRecord, now: number): void {
    const seconds = run.payload?.kind === "watcher" ? run.payload.call.timeoutSeconds : "?";
    this.end(
      run.runId,
      {
        status: "failed",
        failure: { exitCode: null, timedOut: true, tail: "", didNotStart: false },
        detail: `timed out: no outcome within ${seconds} s + ${leaseMs(WATCHER_LEASE_GRACE_MS, this.d.config().config.speedup) / 1000} s`,
      },
      now,
    );
    this.d.waitUntil(this.kill([run]));
  }

  /** The chat's runs that the runner may be running now (claimed or started, not yet matched). */
  running(): RunRecord[] {
    return this.d.runs.open("watcher");
  }

  /** Kills runs on the runner, best effort (a run that is gone already is fine); their outcomes are ignored. */
  async kill(runs: readonly RunRecord[]): Promise<void> {
    const chatId = this.d.info.chatId();
    const config = this.d.config().config;
    const fetcher = chatId === null ? null : runnerFetcher(this.d.env(), config, chatId);
    if (chatId === null || fetcher === null || config.runner.secret === null || runs.length === 0) return;
    const secret = config.runner.secret;
    await Promise.all(runs.map((run) => cancelRun(fetcher, secret, runnerRunId(chatId, run.runId))));
  }

  /**
   * The run, while it still waits for the runner: not settled and still holding its runner call. Anything
   * else (unknown, cancelled, settled, or a match already handed to the agent) takes no outcome.
   */
  private waiting(runId: string): RunRecord | null {
    const run = this.d.runs.get(runId);
    return run && run.state !== "settled" && run.kind === "watcher" ? run : null;
  }

  /**
   * Ends a watcher's run in one transaction: the run's status, the job's `lastResult` and failure streak (a
   * scheduled one-off is deleted, or kept paused), and what the chat is told: the alert of a failure that
   * starts a streak, or the day's one over-budget notice. Only a run still waiting for the runner ends (false
   * otherwise): an outcome that came while its start was being answered is not overwritten by that start's
   * failure. A one-off's exit 75 is a failure: it has no next time to try again.
   */
  private end(runId: string, given: Ending, now: number): boolean {
    const ended = this.d.transaction(() => {
      const run = this.waiting(runId);
      return run ? this.endWaiting(run, this.d.jobs.get(run.jobId), given, now) : false;
    });
    this.d.deliveries.flush();
    return ended;
  }

  /** `end` for a run read as still waiting, with its job, inside the caller's transaction. */
  private endWaiting(run: RunRecord, job: JobRecord | null, given: Ending, now: number): true {
    const secrets = this.secrets();
    const at = new Date(now).toISOString();
    const ending: Ending =
      given.status === "transient" && job && endsJob(job, run) ? { status: "failed", failure: given.failure, detail: `exit ${given.failure.exitCode}` } : given;
    const failure = "failure" in ending ? { ...ending.failure, tail: redact(ending.failure.tail, secrets) } : null;
    const tail = failure ? boundTail(failure.tail) : "";
    const last: LastResult = failure
      ? {
          status: ending.status === "transient" ? "transient" : "failed",
          exitCode: failure.exitCode,
          timedOut: failure.timedOut,
          ...(tail ? { stderrTail: tail } : {}),
          at,
        }
      : { status: ending.status === "over_budget" ? "over_budget" : "silent", exitCode: 0, timedOut: false, at };
    const origin = { source: "alert" as const, jobId: run.jobId, runId: run.runId };
    if (job && failure && ending.status === "failed" && isNewFailure(job.streak, failure))
      this.d.deliveries.write(run.runId, alertText(job, failure), { origin, now, silent: job.silent });
    if (job && ending.status === "over_budget" && ending.noticeDay !== null) {
      this.d.usage.markNoticed(ending.noticeDay, "wakeups");
      this.d.deliveries.write(run.runId, overBudgetText(job, this.d.config().config.maxWakeupsPerDay), { origin, now, silent: job.silent });
    }
    // A failure starts (or continues) its streak, a transient run leaves it, anything else ends it.
    const streak = ending.status === "transient" ? undefined : failure ? { exitCode: failure.exitCode, timedOut: failure.timedOut } : null;
    const settlement = {
      status: ending.status,
      finishedAt: now,
      detail: ending.detail === null ? null : redact(ending.detail, secrets),
      exitCode: failure ? failure.exitCode : 0,
      timedOut: failure?.timedOut ?? false,
    };
    this.d.settler.finish(run, job, { settlement, lastResult: last, now, ...(streak === undefined ? {} : { marks: { streak } }) });
    return true;
  }
}

function didNotStart(reason: string): Ending {
  return { status: "failed", failure: { exitCode: null, timedOut: false, tail: reason, didNotStart: true }, detail: `did not start: ${reason}` };
}
