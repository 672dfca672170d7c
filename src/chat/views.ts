/** @module How stored jobs and runs look to clients (DESIGN §3, §5): epoch ms become RFC 3339 strings. */
import { categoryOf, type JobRecord, type RunRecord } from "../jobs/records";
import type { Job, Run } from "../schemas/jobs";

const iso = (t: number | null): string | null => (t === null ? null : new Date(t).toISOString());

export function toJob(job: JobRecord, chatId: string, defaultTimeout: number): Job {
  const view: Job = {
    id: job.id,
    chatId,
    name: job.name,
    kind: job.kind,
    category: categoryOf(job.kind, job.schedule.type),
    schedule: job.schedule.type === "at" ? { at: new Date(job.schedule.at).toISOString() } : { cron: job.schedule.cron },
    enabled: job.enabled,
    createdAt: new Date(job.createdAt).toISOString(),
    createdBy: job.createdBy,
    nextRunAt: iso(job.nextRunAt),
    lastRunAt: iso(job.lastRunAt),
    lastResult: job.lastResult,
    running: job.runningRunId !== null,
  };
  if (job.kind === "prompt") {
    view.text = job.text ?? "";
    if (job.memoryRefs.length > 0) view.memoryRefs = [...job.memoryRefs];
  } else {
    view.command = job.command ?? "";
    view.timeoutSeconds = job.timeoutSeconds ?? defaultTimeout;
    if (job.onlyOnChange) view.onlyOnChange = true;
  }
  if (job.importedFrom !== null) view.importedFrom = job.importedFrom;
  return view;
}

export function toRun(run: RunRecord): Run {
  return {
    runId: run.runId,
    manual: run.manual,
    dueAt: new Date(run.dueAt).toISOString(),
    startedAt: iso(run.startedAt),
    finishedAt: iso(run.finishedAt),
    state: run.state,
    status: run.status,
    exitCode: run.exitCode,
    timedOut: run.timedOut,
    late: run.late,
    detail: run.detail,
  };
}
