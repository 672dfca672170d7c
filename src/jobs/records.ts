/**
 * @module A job and a run as the chat's object stores them (docs/api.md): the pure core decides on these,
 * the store reads and writes them, and `src/chat/views.ts` turns them into what clients see. Times are epoch
 * milliseconds.
 */

import type { CopyKind } from "../contracts/copy";
import type { PromptMessage } from "../contracts/prompt-message";
import type { RunVia } from "../hooks/input";
import type { Category, CreatedBy, Job, JobKind, LastResult, MissedPolicy, RunState, RunStatus } from "../schemas/jobs";
import type { StoredSchedule } from "../time";
import { DEFAULT_GRACE_SECONDS } from "./missed";

/**
 * A job's schedule as stored (`time/schedule.ts`, the row's form of the one schedule value): a one-off's instant
 * (epoch ms), a cron expression, or a recurrence rule with its local start (docs/time.md; the rule without COUNT
 * and UNTIL, which are the spec's `runsLeft` and `until`).
 */
export type { StoredSchedule };
export type ScheduleType = StoredSchedule["type"];

/**
 * A stored schedule as clients see it (a Job's `schedule`): `{ at }` (RFC 3339), `{ cron }`, `{ rrule, start }`, or
 * `{ trigger: "hook" }` for a job only its hook runs.
 */
export function scheduleView(schedule: StoredSchedule): Job["schedule"] {
  if (schedule.type === "at") return { at: new Date(schedule.at).toISOString() };
  if (schedule.type === "hook") return { trigger: "hook" };
  return schedule.type === "cron" ? { cron: schedule.cron } : { rrule: schedule.rrule, start: schedule.start };
}

/** What is stored of a job's definition. `at` is epoch ms; `until` a local date-time in the chat's zone. */
export type JobSpec = {
  name: string;
  kind: JobKind;
  schedule: StoredSchedule;
  /**
   * Recurring jobs: no run is due after this local minute in the chat's zone (`yyyy-MM-ddTHH:mm`, `time/until.ts`;
   * docs/time.md#jobs-that-end-until-and-runsleft), so that a zone change keeps its meaning; null = no end.
   */
  until: string | null;
  /**
   * Recurring jobs: the scheduled runs left, counted down when one is claimed; 0 once its last run is claimed
   * (the job is deleted when that run settles); null = no count.
   */
  runsLeft: number | null;
  text: string | null;
  command: string | null;
  /** Watchers only; null = the operator's DEFAULT_SCRIPT_TIMEOUT. */
  timeoutSeconds: number | null;
  /** Prompts only: the memory records whose current content each fire puts into the prompt (≤ 5). */
  memoryRefs: string[];
  /** Watchers only: a match whose output equals the last delivered match's is silent (unchanged). */
  onlyOnChange: boolean;
  /** Its messages go out without a notification sound (docs/telegram.md#quiet). */
  silent: boolean;
  /** The model its turns run on (docs/agent.md#models); null = the chat's. */
  model: string | null;
  /** What a run missed while the bot was offline does (docs/time.md#missed-runs). */
  missed: MissedPolicy;
  /** An occurrence run more than this many seconds after its time was missed (0 to 86,400). */
  graceSeconds: number;
  /** Notices ahead of each run, in seconds before it, longest first (at most 3; docs/telegram.md#notices-ahead). */
  before: number[];
  /** Prompt jobs: its run's message sent again this often, this many more times, until someone acts on it; null: once. */
  repeat: Repeat | null;
  /** A one-off that brings back a message of its chat when it fires (docs/telegram.md#remind-me-about-this); null: none. */
  copyOf: CopyRef | null;
};

/** A message of the job's chat, by its Telegram id, and what kind it is (`photo`, `voice` …); never its file. */
export type CopyRef = { messageId: number; kind: CopyKind };

/** How a run's message nags (docs/telegram.md#nag-until-done): every 60 to 86,400 seconds, 1 to 20 more times. */
export type Repeat = { everySeconds: number; times: number };

/**
 * The spec's fields a job has unless its kind sets them: a new spec field gets its default here, so that every
 * place a spec is made (a create, a stand-in for an unreadable row, the tests' records) has it.
 */
export function specDefaults(): Omit<JobSpec, "name" | "kind" | "schedule"> {
  return {
    until: null,
    runsLeft: null,
    text: null,
    command: null,
    timeoutSeconds: null,
    memoryRefs: [],
    onlyOnChange: false,
    silent: false,
    model: null,
    missed: "once",
    graceSeconds: DEFAULT_GRACE_SECONDS,
    before: [],
    repeat: null,
    copyOf: null,
  };
}

/**
 * The failure a watcher's streak started with (docs/api.md#how-a-job-fires): a failure like it is not reported again until a
 * success ends the streak. Kept apart from `lastResult`, which a transient run (exit 75) overwrites.
 */
export type FailureStreak = { exitCode: number | null; timedOut: boolean };

/** A job as stored: the spec plus its firing state. */
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
  /** Watchers: the hash of the last match delivered to the agent (what `onlyOnChange` compares). */
  matchHash: string | null;
  /** Watchers: the failure of the current streak, or null when none is running. */
  streak: FailureStreak | null;
  /** An imported job's source id (`playa:k7m2q`, `acpbot:…`, `commitments:…`). */
  importedFrom: string | null;
  /** The forum topic its messages go to (Telegram's `message_thread_id`), the one it was created in; null = the main thread. */
  threadId: number | null;
  /** Its hook's token as a hash (SHA-256, hex; the token itself is shown once and never kept); null = no hook (docs/hooks.md). */
  hook: string | null;
  /** When its next notice ahead of a run is sent (`before`); null: none to come. Kept by the store from `before` and the next run. */
  noticeAt: number | null;
};

/**
 * What a claimed watcher run asks of the runner: the job's command as it was when claimed, and what its script reads
 * on standard input when a hook woke it (docs/hooks.md; absent: stdin closed).
 */
export type WatcherCall = { command: string; timeoutSeconds: number; timeZone: string; stdin?: string };

/**
 * What an open run carries until it is settled: a prompt for the agent (a prompt job's, or a watcher's match),
 * or a watcher's call to the runner. The run's `kind` column says which.
 */
export type RunPayload = { kind: "prompt"; message: PromptMessage } | { kind: "watcher"; call: WatcherCall };
export type RunKind = RunPayload["kind"];

/** A run as stored. `payload` is null once it is settled (and for a `skipped` occurrence). */
export type RunRecord = {
  runId: string;
  jobId: string;
  kind: RunKind;
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
  /** Failed sends of a claimed run (its retry waits); reset when it is sent. */
  attempts: number;
  /** How often a dispatched prompt was sent again because it never reached the run gate (docs/api.md#how-a-job-fires). */
  resends: number;
  payload: RunPayload | null;
  /** A watcher's match waiting for the agent: the hash of its output, the job's `matchHash` once delivered. */
  outputHash: string | null;
  /** What woke a run that its schedule did not (docs/hooks.md): a call of its hook, or a mail to it; null otherwise. */
  via: RunVia | null;
};

export type { RunVia };

/**
 * How many follow-ups (one-off prompts) a turn caused by a run of `job` may create (docs/agent.md, docs/api.md): one, and
 * none when the job is itself a follow-up (`createdBy: "job"`), so runs never chain. A run whose job is gone
 * keeps the one.
 */
export const followUpsOf = (job: Pick<JobRecord, "createdBy"> | null): number => (job?.createdBy === "job" ? 0 : 1);

/**
 * A job's category (docs/api.md#jobs): only a hook runs it → triggered; watcher → monitoring; prompt + at → one-time;
 * prompt + cron or rule → recurring.
 */
export function categoryOf(kind: JobKind, schedule: ScheduleType): Category {
  if (schedule === "hook") return "triggered";
  if (kind === "watcher") return "monitoring";
  return schedule === "at" ? "one-time" : "recurring";
}

/**
 * A job as it is created: its spec, nothing fired yet. `nextRunAt` is null when it is created paused; an
 * imported job remembers where it came from, and a job made in a forum topic the topic.
 */
export function newJobRecord(
  spec: JobSpec,
  fields: {
    id: string;
    createdAt: number;
    createdBy: CreatedBy;
    nextRunAt: number | null;
    enabled?: boolean;
    importedFrom?: string | null;
    threadId?: number | null;
    hook?: string | null;
  },
): JobRecord {
  const enabled = fields.enabled ?? true;
  return {
    ...spec,
    id: fields.id,
    enabled,
    createdAt: fields.createdAt,
    createdBy: fields.createdBy,
    nextRunAt: enabled ? fields.nextRunAt : null,
    lastRunAt: null,
    lastResult: null,
    runningRunId: null,
    quarantined: null,
    matchHash: null,
    streak: null,
    importedFrom: fields.importedFrom ?? null,
    threadId: fields.threadId ?? null,
    hook: fields.hook ?? null,
    noticeAt: null,
  };
}
