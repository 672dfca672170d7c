/**
 * @module The job records of the pure core (DESIGN §3, §5): a job and a run as stored, times as epoch ms, and
 * the category a job's kind and schedule give it. The shapes clients see and send are `schemas/jobs.ts`'s.
 */
import type { Category, CreatedBy, JobKind, LastResult, RunState, RunStatus } from "../schemas/jobs";
import type { JobSpec } from "./validate";

export function categoryOf(kind: JobKind, schedule: "at" | "cron"): Category {
  if (kind === "watcher") return "monitoring";
  return schedule === "at" ? "one-time" : "recurring";
}

/** A job as stored: the spec plus its firing state. Times are epoch ms. */
export type JobRecord = JobSpec & {
  id: string;
  enabled: boolean;
  createdAt: number;
  createdBy: CreatedBy;
  nextRunAt: number | null;
  lastRunAt: number | null;
  lastResult: LastResult | null;
  runningRunId: string | null;
  quarantined: string | null;
};

/** A run as stored. */
export type RunRecord = {
  runId: string;
  jobId: string;
  manual: boolean;
  dueAt: number;
  startedAt: number | null;
  finishedAt: number | null;
  state: RunState;
  status: RunStatus | null;
  exitCode: number | null;
  timedOut: boolean;
  late: boolean;
  detail: string | null;
  leaseUntil: number | null;
  attempts: number;
  message: string | null;
};
