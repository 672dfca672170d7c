/**
 * @module The job model (DESIGN §3, §5): the shapes clients see (`Job`, `Run`), the create and edit inputs
 * with their zod schemas, chat ids and job ids. One schema per shape; types come from the schemas.
 */
import * as z from "zod";
import { lazy } from "../lazy";
import type { CreatedBy, JobKind, LastResult, RunState, RunStatus } from "./records";

export type { JobKind, LastResult };

export const JOB_KINDS = ["prompt", "watcher"] as const;
export const CATEGORIES = ["one-time", "recurring", "monitoring"] as const;
export type Category = (typeof CATEGORIES)[number];

export const LIMITS = {
  name: 80,
  text: 4000,
  command: 8000,
  timeoutMin: 1,
  timeoutMax: 3600,
  runsKept: 50,
} as const;


/** `lastResult` as stored (JSON in the job row); schemas here are built on first use (DESIGN §12). */
export const lastResultSchema = lazy((): z.ZodType<LastResult> =>
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
