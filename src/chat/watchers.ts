/**
 * @module A chat's watchers at run time (DESIGN §5, §8): starting claimed watcher runs on the runner, taking
 * its outcome (silent; matched → the run becomes one prompt for the agent; failed → an alert once per failure
 * streak), the lease that turns a lost run into "timed out", and killing a run that is cancelled. Output is
 * redacted before anything is stored, queued or delivered. Sending a matched run's prompt is the caller's
 * (firing's) part: this one only claims it.
 */
import { errorsFor, type LoadedConfig } from "../config";
import type { PromptMessage } from "../contracts/prompt-message";
import { backoffMs } from "../backoff";
import { PROMPT_LEASE_MS } from "../jobs/fire";
import type { LastResult } from "../schemas/jobs";
import type { RunRecord } from "../jobs/records";
import { alertText, boundTail, fitOutput, isNewFailure, matchedPromptText, watcherLeaseMs, type Failure } from "../jobs/watcher";
import { callbackUrl, cancelRun, RUNNER_SETUP, runnerFetcher, startRun } from "../runner-client/client";
import { runnerRunId, type RunnerOutcome } from "../contracts/runner";
import { redact, secretsOf } from "../runner-client/redact";
import type { Deliveries } from "./deliveries";
import type { ChatInfo } from "./info";
import type { RunSettler } from "./settle";
import type { JobStore } from "./store/jobs";
import type { RunStore } from "./store/runs";

/** Starting a run is tried this many times (unreachable, 5xx) before it fails "did not start". */
const START_ATTEMPTS = 3;
/** Waits between start attempts: 5 s, 10 s, 20 s … at most a minute. */
const START_BACKOFF = { baseMs: 5_000, maxMs: 60_000 };

/** How a watcher's run ends when the runner has no say: it never started, or its lease ran out. */
type Ending = { status: "silent" } | { status: "failed"; failure: Failure; detail: string };

export type WatcherDeps = {
  jobs: JobStore;
  runs: RunStore;
  info: ChatInfo;
  deliveries: Deliveries;
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
        });
        const at = this.d.now();
        if (started.kind === "started") {
          // Cancelled (or its chat erased) while the start was on its way: the cancel may have reached the
          // runner first and found nothing, so stop the script now.
          if (!this.d.runs.exists(run.runId)) await cancelRun(fetcher, secret, runnerRunId(chatId, run.runId));
          else this.d.runs.markStarted(run.runId, at, at + watcherLeaseMs(call.timeoutSeconds));
          return false;
        }
        // A busy runner is waited for until the run could no longer finish within its lease from its due
        // time; an unreachable or failing one is tried three times.
        const retryAt = at + backoffMs(run.attempts, START_BACKOFF);
        const waitBusy = started.kind === "busy" && retryAt < run.dueAt + watcherLeaseMs(call.timeoutSeconds);
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
   * or cancelled run (or one already handed to the agent) ignores it. True when it was taken; a match is
   * then a claimed prompt, for the caller to send.
   */
  outcome(runId: string, outcome: RunnerOutcome, now: number): boolean {
    if (outcome.status === "silent") return this.end(runId, { status: "silent" }, now);
    if (outcome.status === "failed") {
      const failure: Failure = { exitCode: outcome.exitCode, timedOut: outcome.timedOut, tail: outcome.stderrTail, didNotStart: false };
      return this.end(runId, { status: "failed", failure, detail: outcome.timedOut ? "timed out" : `exit ${outcome.exitCode ?? "?"}` }, now);
    }
    const run = this.waiting(runId);
    const job = run ? this.d.jobs.get(run.jobId) : null;
    if (!run || !job) return false;
    const chatId = this.d.info.chatId() ?? outcome.chatId;
    const firedAt = new Date(now).toISOString();
    const message = fitOutput(redact(outcome.stdout, this.secrets()), (body): PromptMessage => ({
      v: 1,
      key: runId,
      chatId,
      timeZone: this.d.info.zone().zone,
      source: "watcher",
      jobId: job.id,
      jobName: job.name,
      runId,
      text: matchedPromptText(job, body),
      body,
      firedAt,
      dueAt: new Date(run.dueAt).toISOString(),
    }));
    // In flight until the agent settles it: sent like a claimed prompt, settled through the run gate.
    this.d.runs.claimAsPrompt(runId, message, now + PROMPT_LEASE_MS);
    return true;
  }

  /** A watcher's run whose lease ran out with no outcome: failed, timed out; the runner is told to stop it. */
  expire(run: RunRecord, now: number): void {
    const seconds = run.payload?.kind === "watcher" ? run.payload.call.timeoutSeconds : "?";
    this.end(run.runId, { status: "failed", failure: { exitCode: null, timedOut: true, tail: "", didNotStart: false }, detail: `timed out: no outcome within ${seconds} s + 60 s` }, now);
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
   * Ends a watcher's run in one transaction: the run's status, the job's `lastResult` (a scheduled one-off is
   * deleted), and for a failure that starts a streak, the alert delivered straight to the chat. Only a run
   * still waiting for the runner ends (false otherwise): an outcome that came while its start was being
   * answered is not overwritten by that start's failure.
   */
  private end(runId: string, ending: Ending, now: number): boolean {
    const secrets = this.secrets();
    const failure = ending.status === "failed" ? { ...ending.failure, tail: redact(ending.failure.tail, secrets) } : null;
    const tail = failure ? boundTail(failure.tail) : "";
    const at = new Date(now).toISOString();
    const ended = this.d.transaction(() => {
      const run = this.waiting(runId);
      if (!run) return false;
      const job = this.d.jobs.get(run.jobId);
      const last: LastResult = failure
        ? { status: "failed", exitCode: failure.exitCode, timedOut: failure.timedOut, ...(tail ? { stderrTail: tail } : {}), at }
        : { status: "silent", exitCode: 0, timedOut: false, at };
      if (job && failure && isNewFailure(job.lastResult, failure)) {
        this.d.deliveries.write(run.runId, alertText(job, failure), { source: "alert", jobId: job.id, runId: run.runId }, now);
      }
      this.d.settler.finish(
        run,
        job,
        {
          status: ending.status,
          finishedAt: now,
          detail: ending.status === "failed" ? redact(ending.detail, secrets) : null,
          exitCode: failure ? failure.exitCode : 0,
          timedOut: failure?.timedOut ?? false,
        },
        last,
        now,
      );
      return true;
    });
    this.d.deliveries.flush();
    return ended;
  }
}

function didNotStart(reason: string): Ending {
  return { status: "failed", failure: { exitCode: null, timedOut: false, tail: reason, didNotStart: true }, detail: `did not start: ${reason}` };
}
