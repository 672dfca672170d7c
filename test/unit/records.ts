/** Records for the unit tests of the pure core: a stored job as given, a fresh `claimed` run, a job as clients see it. */
import { type JobRecord, newJobRecord, type RunRecord, specDefaults } from "../../src/jobs/records";
import type { Job } from "../../src/schemas/jobs";

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
    via: null,
    ...over,
  };
}

/** A prompt job as clients see it, with what `over` sets: a one-off's next run its time, a recurring job's none. */
export function jobView(over: Partial<Job> & Pick<Job, "id" | "name" | "schedule">): Job {
  return {
    chatId: "123456789",
    kind: "prompt",
    category: "at" in over.schedule ? "one-time" : "trigger" in over.schedule ? "triggered" : "recurring",
    text: "do it",
    enabled: true,
    createdAt: "2026-09-20T10:00:00.000Z",
    createdBy: "user",
    nextRunAt: "at" in over.schedule ? over.schedule.at : null,
    lastRunAt: null,
    lastResult: null,
    running: false,
    hook: false,
    model: null,
    missed: "once",
    grace: "PT1M",
    before: [],
    repeat: null,
    ...over,
  };
}
