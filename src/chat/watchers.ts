/**
 * @module A chat's watchers at run time (DESIGN §5, §8): starting claimed runs on the runner, taking its
 * outcome (silent, matched → one prompt for the agent, failed → an alert once per failure streak), the lease
 * that turns a lost run into "timed out", and killing a run that is cancelled. Output is redacted before
 * anything is stored, queued or delivered.
 */
import type { PromptMessage } from "../contracts/prompt-message";
import { errorsFor, loadConfig } from "../config";
import { endsOneOff, PROMPT_LEASE_MS } from "../jobs/fire";
import type { JobRecord, RunRecord } from "../jobs/model";
import type { LastResult } from "../schemas/jobs";
import { alertText, boundTail, decodeWatcherCall, fitOutput, isNewFailure, matchedPromptText, WATCHER_CALL_PREFIX, watcherLeaseMs, type Failure } from "../jobs/watcher";
import { callbackUrl, cancelRun, RUNNER_SETUP, runnerFetcher, startRun } from "../runner/client";
import { runnerRunId, type RunnerOutcome } from "../runner/outcome";
import { redact, secretsOf } from "../runner/redact";
import { writeDelivery } from "./conversation";
import { retryDelay } from "./dispatch";
import type { ChatEngine } from "./engine";

/** Starting a run is tried this many times (unreachable, 5xx) before it fails "did not start". */
const START_ATTEMPTS = 3;

/** How a watcher's run ends when the runner has no say: it never started, or its lease ran out. */
type Ending = { status: "silent" } | { status: "failed"; failure: Failure; detail: string };

export class Watchers {
  constructor(private readonly engine: ChatEngine) {}

  private get store() {
    return this.engine.store;
  }

  private secrets(): string[] {
    return secretsOf(this.engine.config);
  }

  /** Starts claimed watcher runs on the runner; true when one must be tried again later. */
  async start(runs: readonly RunRecord[], now: number): Promise<boolean> {
    if (runs.length === 0) return false;
    const chatId = this.store.setting("chat_id");
    if (chatId === null) return false;
    const loaded = loadConfig(this.engine.env);
    const config = loaded.config;
    const misconfigured = errorsFor(loaded, "watchers");
    const fetcher = runnerFetcher(this.engine.env, config, chatId);
    const secret = config.runner.secret;
    const results = await Promise.all(
      runs.map(async (run) => {
        const call = decodeWatcherCall(run.message);
        if (call === null) return false;
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
        const at = Date.now();
        if (started.kind === "started") {
          // Cancelled (or its chat erased) while the start was on its way: the cancel may have reached the
          // runner first and found nothing, so stop the script now.
          if (!this.store.runExists(run.runId)) await cancelRun(fetcher, secret, runnerRunId(chatId, run.runId));
          else this.store.markStarted(run.runId, WATCHER_CALL_PREFIX, at, at + watcherLeaseMs(call.timeoutSeconds));
          return false;
        }
        // A busy runner is waited for until the run could no longer finish within its lease from its due
        // time; an unreachable or failing one is tried three times.
        // The same waits as a failed queue send, at most a minute apart.
        const retryAt = at + retryDelay(run.attempts, 60_000);
        const waitBusy = started.kind === "busy" && retryAt < run.dueAt + watcherLeaseMs(call.timeoutSeconds);
        if (waitBusy || (started.kind === "retry" && run.attempts + 1 < START_ATTEMPTS)) {
          this.store.deferClaimed([run.runId], retryAt);
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
   * or cancelled run (or one already handed to the agent) ignores it. True when it was taken.
   */
  async outcome(runId: string, outcome: RunnerOutcome, now: number): Promise<boolean> {
    if (outcome.status === "silent") return this.end(runId, { status: "silent" }, now);
    if (outcome.status === "failed") {
      const failure: Failure = { exitCode: outcome.exitCode, timedOut: outcome.timedOut, tail: outcome.stderrTail, didNotStart: false };
      return this.end(runId, { status: "failed", failure, detail: outcome.timedOut ? "timed out" : `exit ${outcome.exitCode ?? "?"}` }, now);
    }
    const run = this.waiting(runId);
    if (!run) return false;
    const row = this.store.jobRow(run.jobId);
    if (!row?.ok) return false;
    const chatId = this.store.setting("chat_id") ?? outcome.chatId;
    const firedAt = new Date(now).toISOString();
    const message = fitOutput(redact(outcome.stdout, this.secrets()), (body): PromptMessage => ({
      v: 1,
      key: runId,
      chatId,
      timeZone: this.engine.zone().zone,
      source: "watcher",
      jobId: row.job.id,
      jobName: row.job.name,
      runId,
      text: matchedPromptText(row.job, body),
      body,
      firedAt,
      dueAt: new Date(run.dueAt).toISOString(),
    }));
    // In flight until the agent settles it: sent like a claimed prompt, settled through the run gate.
    this.store.claimAsPrompt(runId, JSON.stringify(message), now + PROMPT_LEASE_MS);
    await this.engine.dispatch(now);
    return true;
  }

  /** A watcher's run whose lease ran out with no outcome: failed, timed out; the runner is told to stop it. */
  expire(run: RunRecord, now: number): void {
    const call = decodeWatcherCall(run.message);
    this.end(run.runId, { status: "failed", failure: { exitCode: null, timedOut: true, tail: "", didNotStart: false }, detail: `timed out: no outcome within ${call?.timeoutSeconds ?? "?"} s + 60 s` }, now);
    this.engine.ctx.waitUntil(this.kill([run]));
  }

  /** The chat's runs that the runner may be running now (claimed or started, not yet matched). */
  running(): RunRecord[] {
    return this.store.openRunsWithMessage(WATCHER_CALL_PREFIX);
  }

  /** Kills runs on the runner, best effort (a run that is gone already is fine); their outcomes are ignored. */
  async kill(runs: readonly RunRecord[]): Promise<void> {
    const chatId = this.store.setting("chat_id");
    const config = this.engine.config;
    const fetcher = chatId === null ? null : runnerFetcher(this.engine.env, config, chatId);
    if (chatId === null || fetcher === null || config.runner.secret === null) return;
    const secret = config.runner.secret;
    await Promise.all(runs.map((run) => cancelRun(fetcher, secret, runnerRunId(chatId, run.runId))));
  }

  /**
   * The run, while it still waits for the runner: not settled and still holding its runner call. Anything
   * else (unknown, cancelled, settled, or a match already handed to the agent) takes no outcome.
   */
  private waiting(runId: string): RunRecord | null {
    const run = this.store.run(runId);
    return run && run.state !== "settled" && decodeWatcherCall(run.message) !== null ? run : null;
  }

  /**
   * Settles a watcher's run in one transaction: the run's status, the job's `lastResult` (a scheduled
   * one-off is deleted), and for a failure that starts a streak, the alert delivered straight to the chat.
   * Only a run still waiting for the runner ends (false otherwise): an outcome that came while its start was
   * being answered is not overwritten by that start's failure.
   */
  private end(runId: string, ending: Ending, now: number): boolean {
    const secrets = this.secrets();
    const failure = ending.status === "failed" ? { ...ending.failure, tail: redact(ending.failure.tail, secrets) } : null;
    const tail = failure ? boundTail(failure.tail) : "";
    const ended = this.engine.ctx.storage.transactionSync(() => {
      const run = this.waiting(runId);
      if (!run) return false;
      this.store.settleRun(run.runId, {
        status: ending.status,
        finishedAt: now,
        detail: ending.status === "failed" ? redact(ending.detail, secrets) : null,
        exitCode: failure ? failure.exitCode : 0,
        timedOut: failure?.timedOut ?? false,
      });
      const row = this.store.jobRow(run.jobId);
      if (!row?.ok) return true;
      const job = row.job;
      const last: LastResult = failure
        ? { status: "failed", exitCode: failure.exitCode, timedOut: failure.timedOut, ...(tail ? { stderrTail: tail } : {}), at: new Date(now).toISOString() }
        : { status: "silent", exitCode: 0, timedOut: false, at: new Date(now).toISOString() };
      if (failure && isNewFailure(job.lastResult, failure)) {
        writeDelivery(this.engine.talk, run.runId, alertText(job, failure), { source: "alert", jobId: job.id, runId: run.runId }, {}, now, this.engine.canSend());
      }
      this.finishJob(job, run, last);
      return true;
    });
    this.engine.flushOutbox();
    return ended;
  }

  private finishJob(job: JobRecord, run: RunRecord, last: LastResult): void {
    if (endsOneOff(job, run)) {
      this.store.deleteJob(job.id);
      return;
    }
    this.store.markSettled(job.id, run.runId, last);
    this.store.pruneRuns(job.id);
  }
}

function didNotStart(reason: string): Ending {
  return { status: "failed", failure: { exitCode: null, timedOut: false, tail: reason, didNotStart: true }, detail: `did not start: ${reason}` };
}
