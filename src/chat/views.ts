/** @module How stored jobs and runs look to clients (docs/api.md): epoch ms become RFC 3339 strings. */

import { printable } from "../contracts/ids";
import { graceText } from "../jobs/missed";
import { categoryOf, type JobRecord, type RunRecord, scheduleView } from "../jobs/records";
import type { Job, Run } from "../schemas/jobs";

const iso = (t: number | null): string | null => (t === null ? null : new Date(t).toISOString());

/**
 * Every field of a view named, so that the compiler asks for a new one: an optional field given as undefined
 * where the view leaves it out.
 */
type Complete<T> = { [K in keyof Required<T>]: Record<never, never> extends Pick<T, K> ? T[K] | undefined : T[K] };

/** The view without the fields given as undefined (left out, as the schema's optional fields are). */
function present<T extends object>(view: Complete<T>): T {
  // Complete<T> less its undefined optional fields is T.
  return Object.fromEntries(Object.entries(view).filter(([, value]) => value !== undefined)) as T;
}

/**
 * A job as clients see it (`jobSchema`): its name printable (as every echo of it, also one stored before names were
 * kept so), times as RFC 3339, a recurring job's end (`until` a local date-time in the chat's zone, `runsLeft`, null
 * for none), a prompt's text and memory records, a watcher's command, timeout (the operator's default when it sets
 * none), `onlyOnChange` (present when true), and its forum topic when it has one.
 */
export function toJob(job: JobRecord, chatId: string, defaultTimeout: number): Job {
  const prompt = job.kind === "prompt";
  const recurring = job.schedule.type === "cron" || job.schedule.type === "rule";
  return present<Job>({
    id: job.id,
    chatId,
    name: printable(job.name),
    kind: job.kind,
    category: categoryOf(job.kind, job.schedule.type),
    schedule: scheduleView(job.schedule),
    until: recurring ? job.until : undefined,
    runsLeft: recurring ? job.runsLeft : undefined,
    enabled: job.enabled,
    createdAt: new Date(job.createdAt).toISOString(),
    createdBy: job.createdBy,
    nextRunAt: iso(job.nextRunAt),
    lastRunAt: iso(job.lastRunAt),
    lastResult: job.lastResult,
    running: job.runningRunId !== null,
    text: prompt ? (job.text ?? "") : undefined,
    memoryRefs: prompt && job.memoryRefs.length > 0 ? [...job.memoryRefs] : undefined,
    command: prompt ? undefined : (job.command ?? ""),
    timeoutSeconds: prompt ? undefined : (job.timeoutSeconds ?? defaultTimeout),
    onlyOnChange: !prompt && job.onlyOnChange ? true : undefined,
    silent: job.silent ? true : undefined,
    model: job.model,
    missed: job.missed,
    grace: graceText(job.graceSeconds),
    before: job.before.map(graceText),
    repeat: job.repeat === null ? null : { every: graceText(job.repeat.everySeconds), times: job.repeat.times },
    importedFrom: job.importedFrom ?? undefined,
    threadId: job.threadId ?? undefined,
    hook: job.hook !== null,
  });
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
    ...(run.via === null ? {} : { via: run.via }),
  };
}
