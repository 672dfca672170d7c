/**
 * @module What a person does to a job, decided purely (docs/api.md#jobs, docs/time.md): a skip by hand, a resume, an
 * edit's next run, and the chat's zone changing under its jobs. Each decides from the job and the occurrences
 * skipped by hand, or refuses with its sentence and what it says by name; `Firing.apply` writes what it decided.
 */
import { runIdOf } from "../contracts/run-id";
import { ok, type Result } from "../result";
import { instantOfWall, toLocal, untilInstant } from "../time";
import { advance, type FireDecision, type MovedSkip, NONE_SKIPPED, pastSkipped, type Skipped, skippedByHand, skippedRun } from "./fire";
import type { JobRecord, RunRecord } from "./records";
import { hookOnlyText, lastRunText, noRunsLeftText, nothingToSkipText, type Refusal, runsOnceText, SKIPPED_BY_HAND } from "./texts";

/** A decision, or its refusal: the sentence and what it says by name. */
type Refused<T> = Result<T, Refusal>;
const refuse = (refusal: Refusal): { ok: false; error: Refusal } => ({ ok: false, error: refusal });

/**
 * Skip by hand (docs/api.md#jobs): a recurring job's next occurrence passed over, recorded in its history as
 * `skipped` ("skipped by hand", never late), and its next run moved to the one after; a run in flight is not
 * touched. Or the sentence why not: a one-off, a paused job and one with no next run have nothing to skip, and a
 * job's last run before its end is not skipped (it would end the job: cancel it instead), nor a job only its hook runs. A skip does not count
 * against `runsLeft`. The run's `dueAt` is the occurrence passed over; the job's next run passes over those `skipped` by
 * hand already.
 */
export function decideSkip(job: JobRecord, zone: string, now: number, skipped: Skipped = NONE_SKIPPED): Refused<Extract<FireDecision, { action: "skip" }>> {
  if (job.schedule.type === "at") return refuse(runsOnceText(job.id));
  if (job.schedule.type === "hook") return refuse(hookOnlyText(job.id));
  if (!job.enabled || job.nextRunAt === null) return refuse(nothingToSkipText(job));
  const passed = job.nextRunAt;
  const step = advance(job, job.schedule, zone, passed, skipped);
  if (step.ended || job.runsLeft === 1) return refuse(lastRunText(job.id));
  return ok({ action: "skip", job: { ...job, nextRunAt: step.nextRunAt }, run: { ...skippedRun(job, passed, now, SKIPPED_BY_HAND), late: false } });
}

/**
 * Resume (docs/api.md#how-a-job-fires), of a paused job or one that is not: a one-off at its time (at once, late,
 * when that has passed); a recurring job from `now`, passing over the occurrences `skipped` by hand, so that a
 * resume undoes a pause and nothing else. Or the sentence why not: a recurring job with no run left before its end
 * (its `until` or `runsLeft` must change first).
 */
export function decideResume(job: JobRecord, zone: string, now: number, skipped: Skipped = NONE_SKIPPED): Refused<JobRecord> {
  const resumed: JobRecord = { ...job, enabled: true, quarantined: null };
  if (job.schedule.type === "at") return ok({ ...resumed, nextRunAt: job.schedule.at });
  if (job.schedule.type === "hook") return ok({ ...resumed, nextRunAt: null });
  const step = advance(job, job.schedule, zone, now, skipped);
  if (step.ended || job.runsLeft === 0) return refuse(noRunsLeftText(job, zone, now));
  return ok({ ...resumed, nextRunAt: step.nextRunAt });
}

/**
 * An edit that changed a recurring job's schedule or gave it a run again (docs/api.md#jobs): its next run is the
 * edit's (`next`, from now under what the job has now), passing over the occurrences `skipped` by hand; or the
 * sentence why not, when that passes the job's `until` (the skip took its last run before the end). A one-off's is `next`.
 */
export function decideEditNext(
  job: JobRecord,
  next: number | null,
  zone: string,
  now: number,
  skipped: Skipped = NONE_SKIPPED,
): Result<number | null, Refusal> {
  if (job.schedule.type === "at" || job.schedule.type === "hook" || next === null) return ok(next);
  const at = pastSkipped(job.schedule, zone, next, skipped);
  if (at === null || (job.until !== null && at > untilInstant(job.until, zone))) return refuse(noRunsLeftText(job, zone, now));
  return ok(at);
}

/** How far apart the same wall-clock time can fall in two zones (UTC−12 to UTC+14), and a margin. */
export const ZONE_SPAN_MS = 2 * 24 * 60 * 60_000;

/**
 * The job's skips by hand in the chat's new zone: an occurrence is its wall-clock time (Thursday 09:00), so each
 * skip moves to the instant of that time in `to`; a skip whose occurrence has passed in both zones stays as the
 * history it is. `skips`: the job's skipped runs (the caller reads those due within ZONE_SPAN_MS of now or later).
 */
function movedSkips(skips: readonly RunRecord[], zones: ZoneChange, now: number): { moved: MovedSkip[]; skipped: Skipped } {
  const moved: MovedSkip[] = [];
  const skipped = new Set<number>();
  for (const run of skips) {
    if (!skippedByHand(run)) continue;
    const dueAt = zones.from === zones.to ? run.dueAt : instantOfWall(zones.to, toLocal(zones.from, run.dueAt));
    if (dueAt <= now && run.dueAt <= now) continue;
    if (dueAt > now) skipped.add(dueAt);
    if (dueAt !== run.dueAt) moved.push({ was: run.runId, run: { ...run, runId: runIdOf(run.jobId, dueAt), dueAt } });
  }
  return { moved, skipped };
}

/** A change of the chat's zone: the zone its jobs ran in, and the one they run in from now. */
export type ZoneChange = { from: string; to: string };

/**
 * The chat's zone changed (docs/time.md), to another zone or to the one it had: a recurring job's next run is
 * recomputed in `zones.to` strictly after `now`, with no catch-up (a rule's `start` stays the same local time, so the
 * rule is expanded anew there), passing over the occurrences it skipped by hand, which move with it (`skips`: the
 * job's skipped runs); one whose next run would now fall after its `until` has ended: it goes, or, with its last
 * run in flight, keeps no next run and goes when that run settles. Null when nothing moves: a one-off keeps its
 * instant, and a paused or quarantined job, or one whose last run is in flight, has no next run to move (a paused
 * job's skips move all the same, for its resume).
 */
export function decideZoneChange(
  job: JobRecord,
  zones: ZoneChange,
  now: number,
  skips: readonly RunRecord[] = [],
): Extract<FireDecision, { action: "move" | "end" }> | null {
  if (job.schedule.type === "at" || job.schedule.type === "hook" || job.runsLeft === 0) return null;
  const { moved, skipped } = movedSkips(skips, zones, now);
  if (!job.enabled || job.quarantined !== null) return moved.length > 0 ? { action: "move", job, skips: moved } : null;
  const step = advance(job, job.schedule, zones.to, now, skipped);
  if (step.ended && job.runningRunId === null) return { action: "end", job };
  return { action: "move", job: { ...job, nextRunAt: step.nextRunAt, ...(step.ended ? { runsLeft: 0 } : {}) }, skips: moved };
}
