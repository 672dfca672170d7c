/**
 * @module How a run ends (docs/api.md#how-a-job-fires): its status and history entry, the job's `lastResult` and in-flight mark,
 * and a one-off deleted after its scheduled run, or, when that run failed, kept paused with its history and
 * the chat told. Used for an agent's outcome (the run gate, a dead letter, a lease that ran out) and for a
 * watcher's script outcome, so both end a run the same way.
 */
import { pausedOneOff, runEnd } from "../jobs/fire";
import type { FailureStreak, JobRecord, RunRecord } from "../jobs/records";
import { oneOffFailedText } from "../jobs/texts";
import type { LastResult } from "../schemas/jobs";
import type { Deliveries } from "./deliveries";
import type { JobStore } from "./store/jobs";
import type { RunStore, Settlement } from "./store/runs";

/** What the agent reports of a prompt's run. */
export type AgentStatus = "delivered" | "failed";

/**
 * What a watcher's run changes beyond `lastResult`: its failure streak (a failure sets it, a success ends it,
 * undefined leaves it, as a transient run does) and the hash of a match delivered to the agent.
 */
export type WatcherMarks = { streak?: FailureStreak | null; matchHash?: string };

/**
 * How a run ends: its history entry, the job's `lastResult`, what a watcher's run marks, and `tell`, the reason
 * told to the chat when a one-off's scheduled run keeps its job (null: nothing, or the caller told it).
 */
export type RunEnding = { settlement: Settlement; lastResult: LastResult; now: number; tell?: string | null; marks?: WatcherMarks };

/** Told of each run `finish` ends: its id and the status it ends with. */
export type RunEnded = (runId: string, status: string) => void;

export class RunSettler {
  private ended: RunEnded | null = null;

  constructor(
    private readonly jobs: JobStore,
    private readonly runs: RunStore,
    private readonly deliveries: Deliveries,
    private readonly transaction: <T>(work: () => T) => T,
  ) {}

  /**
   * `listener` is told of every run `finish` ends from now on, as it ends it, inside the settling transaction
   * (the object's `runEnded` hook).
   */
  onEnded(listener: RunEnded): void {
    this.ended = listener;
  }

  /**
   * The agent is done with `runId` (or gave up, or no agent took it). A watcher's run reaches the agent only
   * when its script matched, so delivered is `matched` there. A failed one-off tells the chat, unless the
   * caller already did (`told`). False when the run is unknown or settled.
   */
  agentOutcome(runId: string, status: AgentStatus, detail: string | null, now: number, told = false): boolean {
    const run = this.runs.get(runId);
    if (!run || run.state === "settled") return false;
    this.transaction(() => {
      const job = this.jobs.get(run.jobId);
      const matched = job?.kind === "watcher" && status === "delivered";
      const result = matched ? "matched" : status;
      const at = new Date(now).toISOString();
      // A run that had to be sent again says so in its history (docs/agent.md#the-lease).
      const resent =
        run.resends > 0 && status === "delivered"
          ? `sent ${run.resends + 1} times; the first ${run.resends === 1 ? "one" : run.resends} never reached the run gate`
          : null;
      const settlement: Settlement = { status: result, finishedAt: now, detail: detail ?? resent, ...(matched ? { exitCode: 0 } : {}) };
      const last: LastResult = matched ? { status: "matched", exitCode: 0, timedOut: false, at } : { status: result, at };
      // A watcher's run reached the agent because its script succeeded: that ends a failure streak, and a
      // delivered match is the one `onlyOnChange` compares the next output with.
      const marks: WatcherMarks = job?.kind === "watcher" ? { streak: null, ...(matched && run.outputHash !== null ? { matchHash: run.outputHash } : {}) } : {};
      this.finish(run, job, { settlement, lastResult: last, now, tell: told ? null : (detail ?? "the agent failed"), marks });
    });
    this.deliveries.flush();
    return true;
  }

  /**
   * Settles `run` and updates its job, inside the caller's transaction: the one way a run ends, by the one rule
   * of `runEnd`. A one-off's scheduled run that failed (or whose match was over the day's budget) keeps the
   * job, paused; `tell`, when given, is told to the chat then.
   */
  finish(run: RunRecord, job: JobRecord | null, ending: RunEnding): void {
    const { settlement, lastResult, now, tell = null, marks = {} } = ending;
    this.ended?.(run.runId, settlement.status);
    const end = job ? runEnd(job, run, settlement.status) : "keep";
    if (job && end === "delete") {
      // A one-off that is done goes with all its runs: nothing to move to a history no one can read.
      this.jobs.delete(job.id);
      this.runs.deleteOf(job.id);
      return;
    }
    this.runs.settle(run.runId, settlement);
    if (!job) return;
    if (end === "pause") {
      const streak = marks.streak === undefined ? job.streak : marks.streak;
      this.jobs.save({ ...pausedOneOff(job), runningRunId: null, lastResult, streak, matchHash: marks.matchHash ?? job.matchHash });
      this.runs.prune(job.id);
      if (tell !== null)
        this.deliveries.write(run.runId, oneOffFailedText(job, tell), {
          origin: { source: "alert", jobId: job.id, runId: run.runId },
          now,
          silent: job.silent,
        });
      return;
    }
    this.jobs.markSettled(job.id, run.runId, lastResult, marks);
    this.runs.prune(job.id);
  }
}
