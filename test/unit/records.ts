/** Stored records for the unit tests of the pure core: a job as given, a fresh `claimed` run, or as given. */
import { newJobRecord, specDefaults, type JobRecord, type RunRecord } from "../../src/jobs/records";

/** A prompt job with nothing fired yet, with what `over` sets (it names its id, name, schedule and text). */
export function jobRecord(over: Partial<JobRecord> & Pick<JobRecord, "id" | "name" | "schedule" | "text" | "createdAt">): JobRecord {
  const spec = { ...specDefaults(), kind: "prompt" as const, name: over.name, schedule: over.schedule };
  const nextRunAt = over.schedule.type === "at" ? over.schedule.at : null;
  return { ...newJobRecord(spec, { id: over.id, createdAt: over.createdAt, createdBy: "user", nextRunAt }), ...over };
}

/** A claimed run `<jobId>:<dueAt>` (its job id taken from the run id), with what `over` sets. */
export function runRecord(over: Partial<RunRecord> & Pick<RunRecord, "runId" | "dueAt">): RunRecord {
  return {
    jobId: over.runId.split(":")[0]!,
    kind: "prompt",
    manual: false,
    startedAt: null,
    finishedAt: null,
    state: "claimed",
    status: null,
    exitCode: null,
    timedOut: false,
    late: false,
    detail: null,
    leaseUntil: null,
    attempts: 0,
    resends: 0,
    payload: null,
    outputHash: null,
    ...over,
  };
}
