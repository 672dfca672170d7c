/** A stored run for the unit tests of the pure core: a fresh `claimed` run with nothing settled, or as given. */
import type { RunRecord } from "../../src/jobs/records";

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
    ...over,
  };
}
