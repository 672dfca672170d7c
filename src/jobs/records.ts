/**
 * @module A job and a run as the chat's object stores them (DESIGN §3, §5): the pure core decides on these,
 * the store reads and writes them, and `src/chat/views.ts` turns them into what clients see. Times are epoch
 * milliseconds.
 */
import type { PromptMessage } from "../contracts/prompt-message";

export type JobKind = "prompt" | "watcher";

/** How a job's last run ended, as clients see it (DESIGN §3 `lastResult`). */
export type LastResult = {
  status: "delivered" | "silent" | "matched" | "failed";
  exitCode?: number | null;
  timedOut?: boolean;
  stderrTail?: string;
  at: string;
};

/** What is stored of a job's definition. `at` is epoch ms. */
export type JobSpec = {
  name: string;
  kind: JobKind;
  schedule: { type: "at"; at: number } | { type: "cron"; cron: string };
  text: string | null;
  command: string | null;
  /** Watchers only; null = the operator's DEFAULT_SCRIPT_TIMEOUT. */
  timeoutSeconds: number | null;
};

/** Who made a job: `user` = Telegram or the dev chat panel. */
export type CreatedBy = "user" | "agent" | "admin";

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
};

/** What a claimed watcher run asks of the runner: the job's command as it was when claimed. */
export type WatcherCall = { command: string; timeoutSeconds: number; timeZone: string };

/**
 * What an open run carries until it is settled: a prompt for the agent (a prompt job's, or a watcher's match),
 * or a watcher's call to the runner. The run's `kind` column says which.
 */
export type RunPayload = { kind: "prompt"; message: PromptMessage } | { kind: "watcher"; call: WatcherCall };
export type RunKind = RunPayload["kind"];

export type RunState = "claimed" | "dispatched" | "settled";
export type RunStatus = "delivered" | "silent" | "matched" | "failed" | "skipped";

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
  /** How often a dispatched prompt was sent again because it never reached the run gate (DESIGN §5). */
  resends: number;
  payload: RunPayload | null;
};
