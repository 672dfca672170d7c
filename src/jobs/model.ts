/**
 * @module The job model (DESIGN §3, §5): the shapes clients see (`Job`, `Run`), the create and edit inputs
 * with their zod schemas, chat ids and job ids. One schema per shape; types come from the schemas.
 */
import * as z from "zod";
import { lazy } from "../lazy";
import type { JobSpec } from "./validate";

export const JOB_KINDS = ["prompt", "watcher"] as const;
export type JobKind = (typeof JOB_KINDS)[number];
export const CATEGORIES = ["one-time", "recurring", "monitoring"] as const;
export type Category = (typeof CATEGORIES)[number];
export type CreatedBy = "user" | "agent" | "admin";

export const LIMITS = {
  name: 80,
  text: 4000,
  command: 8000,
  timeoutMin: 1,
  timeoutMax: 3600,
  runsKept: 50,
} as const;

export type LastResult = {
  status: "delivered" | "silent" | "matched" | "failed";
  exitCode?: number | null;
  timedOut?: boolean;
  stderrTail?: string;
  at: string;
};

/** `lastResult` as stored (JSON in the job row); schemas here are built on first use (DESIGN §12). */
export const lastResultSchema = lazy(() =>
  z.strictObject({
    status: z.enum(["delivered", "silent", "matched", "failed"]),
    exitCode: z.number().int().nullable().optional(),
    timedOut: z.boolean().optional(),
    stderrTail: z.string().optional(),
    at: z.string(),
  }),
);

/** A job as every client sees it (DESIGN §3). Times are RFC 3339 UTC strings. */
export type Job = {
  id: string;
  chatId: string;
  name: string;
  kind: JobKind;
  category: Category;
  schedule: { at: string } | { cron: string };
  text?: string;
  command?: string;
  timeoutSeconds?: number;
  enabled: boolean;
  createdAt: string;
  createdBy: CreatedBy;
  nextRunAt: string | null;
  lastRunAt: string | null;
  lastResult: LastResult | null;
  running: boolean;
};

export type RunState = "claimed" | "dispatched" | "settled";
export type RunStatus = "delivered" | "silent" | "matched" | "failed" | "skipped";

/** One occurrence's history entry (DESIGN §5). */
export type Run = {
  runId: string;
  manual: boolean;
  dueAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  state: RunState;
  status: RunStatus | null;
  exitCode: number | null;
  timedOut: boolean;
  late: boolean;
  detail: string | null;
};

/** A string field: a missing one is "required", a wrong type shows the accepted form. */
const str = (field: string, example: string) =>
  z.string({
    error: (issue) =>
      issue.input === undefined
        ? `"${field}" is required, such as ${JSON.stringify(example)}.`
        : `"${field}" must be a string such as ${JSON.stringify(example)}.`,
  });
const TIMEOUT = `"timeoutSeconds" must be a whole number of seconds from ${LIMITS.timeoutMin} to ${LIMITS.timeoutMax}.`;

/** The fields of a create request (DESIGN §3); their rules are checked by `validateCreate`. */
export const createJobInput = lazy(() =>
  z.strictObject({
    name: str("name", "Inbox summary"),
    kind: z.enum(["prompt", "watcher", "reminder"], {
      error: (issue) => (issue.input === undefined ? `"kind" is required: "prompt" or "watcher".` : `"kind" must be "prompt" or "watcher".`),
    }),
    at: str("at", "2026-12-01T09:00").optional(),
    cron: str("cron", "0 8 * * 1-5").optional(),
    delay: str("delay", "PT20M").optional(),
    text: str("text", "Summarise my inbox").optional(),
    command: str("command", "curl -s https://example.com/price").optional(),
    timeoutSeconds: z.number({ error: TIMEOUT }).int({ error: TIMEOUT }).optional(),
  }),
);
export type CreateJobInput = z.infer<ReturnType<typeof createJobInput>>;

/** An edit: the create fields but `kind`, all optional (DESIGN §3). */
export const editJobInput = lazy(() => createJobInput().omit({ kind: true }).partial());
export type EditJobInput = z.infer<ReturnType<typeof editJobInput>>;

/** `GET …/jobs?category=&q=`. */
export const jobFilter = lazy(() =>
  z.strictObject({
    category: z.enum(CATEGORIES, { error: `"category" must be "one-time", "recurring" or "monitoring".` }).optional(),
    q: z.string().max(200, { error: `"q" must be at most 200 characters long.` }).optional(),
  }),
);
export type JobFilter = z.infer<ReturnType<typeof jobFilter>>;

export function categoryOf(kind: JobKind, schedule: "at" | "cron"): Category {
  if (kind === "watcher") return "monitoring";
  return schedule === "at" ? "one-time" : "recurring";
}

/** A job as stored: the spec plus its firing state. Times are epoch ms. */
export type JobRecord = JobSpec & {
  id: string;
  enabled: boolean;
  createdAt: number;
  createdBy: "user" | "agent" | "admin";
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
  state: "claimed" | "dispatched" | "settled";
  status: "delivered" | "silent" | "matched" | "failed" | "skipped" | null;
  exitCode: number | null;
  timedOut: boolean;
  late: boolean;
  detail: string | null;
  leaseUntil: number | null;
  attempts: number;
  message: string | null;
};

