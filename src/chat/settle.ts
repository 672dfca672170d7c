/**
 * @module How a run ends (DESIGN §5): its status and history entry, the job's `lastResult` and in-flight mark,
 * and a one-off deleted after its scheduled run. Used for an agent's outcome (the run gate, a dead letter, a
 * lease that ran out) and for a watcher's script outcome, so both end a run the same way.
 */
import { endsOneOff } from "../jobs/fire";
import type { LastResult } from "../jobs/model";
import type { JobRecord, RunRecord } from "../jobs/records";
import type { JobStore } from "./store/jobs";
import type { RunStore, Settlement } from "./store/runs";

/** What the agent reports of a prompt's run. */
export type AgentStatus = "delivered" | "failed";

export class RunSettler {
  constructor(
    private readonly jobs: JobStore,
    private readonly runs: RunStore,
    private readonly transaction: <T>(work: () => T) => T,
  ) {}

  /**
   * The agent is done with `runId` (or gave up, or its lease ran out). A watcher's run reaches the agent only
   * when its script matched, so delivered is `matched` there. False when the run is unknown or settled.
   */
  agentOutcome(runId: string, status: AgentStatus, detail: string | null, now: number): boolean {
    const run = this.runs.get(runId);
    if (!run || run.state === "settled") return false;
    this.transaction(() => {
      const job = this.jobs.get(run.jobId);
      const matched = job?.kind === "watcher" && status === "delivered";
      const result = matched ? "matched" : status;
      const at = new Date(now).toISOString();
      this.finish(
        run,
        job,
        { status: result, finishedAt: now, detail, ...(matched ? { exitCode: 0 } : {}) },
        matched ? { status: "matched", exitCode: 0, timedOut: false, at } : { status: result, at },
      );
    });
    return true;
  }

  /** Settles `run` and updates its job (inside the caller's transaction): the one way a run ends. */
  finish(run: RunRecord, job: JobRecord | null, settlement: Settlement, lastResult: LastResult): void {
    this.runs.settle(run.runId, settlement);
    if (!job) return;
    if (endsOneOff(job, run)) {
      this.jobs.delete(job.id);
      return;
    }
    this.jobs.markSettled(job.id, run.runId, lastResult);
    this.runs.prune(job.id);
  }
}
