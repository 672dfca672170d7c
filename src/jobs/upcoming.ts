/**
 * @module The runs a recurring job will make (docs/time.md#jobs-that-end-until-and-runsleft): from its next run on, each
 * occurrence of its schedule, passing over those skipped by hand, until its `until` or its last run left. What the
 * agenda lists of a day and the calendar feed lists ahead are read from here. Pure.
 */
import { untilInstant } from "../time";
import { nextRecurringRun, pastSkipped, type RecurringSchedule, type Skipped } from "./fire";
import type { JobRecord } from "./records";

/** A recurring job's runs from its next run on, soonest first; the caller stops where it needs to. */
export function* upcomingRuns(
  job: Pick<JobRecord, "until" | "runsLeft" | "nextRunAt">,
  schedule: RecurringSchedule,
  zone: string,
  skipped: Skipped,
): Generator<number> {
  const end = job.until === null ? Number.POSITIVE_INFINITY : untilInstant(job.until, zone);
  let left = job.runsLeft ?? Number.POSITIVE_INFINITY;
  for (let t = job.nextRunAt; t !== null && t <= end && left > 0; t = pastSkipped(schedule, zone, nextRecurringRun(schedule, zone, t), skipped)) {
    yield t;
    left--;
  }
}
