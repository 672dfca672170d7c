/**
 * @module The job shapes clients see and send (docs/api.md): `Job`, `Run`, `lastResult`, the create and
 * edit bodies, the list filter, and the answers that carry them. One schema per shape; the types come from
 * the schemas; the rules beyond a field's type (lengths, the schedule, kinds) are `jobs/validate.ts`'s.
 */
import * as z from "zod";
import { lazy } from "../lazy";
import { LANGS, type Lang } from "../words/lang";
import { chatId, instant, jobId, str } from "./common";

export const JOB_KINDS = ["prompt", "watcher"] as const;
export type JobKind = (typeof JOB_KINDS)[number];
export const CATEGORIES = ["one-time", "recurring", "monitoring", "triggered"] as const;
export type Category = (typeof CATEGORIES)[number];
export const CREATED_BY = ["user", "agent", "admin", "job"] as const;
export type CreatedBy = (typeof CREATED_BY)[number];
const REPEAT_ERROR = `"repeat" must be { "every": an ISO 8601 duration from PT1M to P1D, "times": a whole number from 1 to 20 }, such as { "every": "PT10M", "times": 6 }, or null for none.`;

/** What a missed run does (docs/time.md#missed-runs). */
export const MISSED_POLICIES = ["once", "skip", "all", "ask"] as const;
export type MissedPolicy = (typeof MISSED_POLICIES)[number];

export const LIMITS = {
  name: 80,
  text: 4000,
  command: 8000,
  timeoutMin: 1,
  timeoutMax: 3600,
  runsKept: 50,
  memoryRefs: 5,
  runsLeft: 1000,
} as const;

/**
 * `transient`: a watcher's script exited 75 (EX_TEMPFAIL, "try next time"); `over_budget`: a watcher matched
 * past the chat's MAX_WAKEUPS_PER_DAY and woke no one (docs/api.md).
 */
export const LAST_STATUSES = ["delivered", "silent", "matched", "failed", "transient", "over_budget"] as const;
export const RUN_STATUSES = ["delivered", "silent", "matched", "failed", "skipped", "transient", "over_budget"] as const;

/** `lastResult`: as clients see it, and as the chat's object stores it (JSON in the job row, parsed back). */
export const lastResultSchema = lazy(() =>
  z.strictObject({
    status: z.enum(LAST_STATUSES),
    exitCode: z.number().int().nullable().optional(),
    timedOut: z.boolean().optional(),
    stderrTail: z.string().optional(),
    at: instant(),
  }),
);
export type LastResult = z.infer<ReturnType<typeof lastResultSchema>>;

/** A job as every client sees it (docs/api.md#jobs). */
export const jobSchema = lazy(() =>
  z.strictObject({
    id: jobId(),
    chatId: chatId(),
    name: z.string(),
    kind: z.enum(JOB_KINDS),
    category: z.enum(CATEGORIES).meta({
      description:
        "run only by its hook (`trigger`) → triggered; else watcher → monitoring; a prompt with `at` → one-time; with `cron` or `rrule` → recurring.",
    }),
    schedule: z.union([
      z.strictObject({ at: instant() }),
      z.strictObject({ cron: z.string() }),
      z.strictObject({
        rrule: z.string().meta({
          description: "An RFC 5545 RRULE value without COUNT or UNTIL (they are `runsLeft` and `until`).",
          examples: ["FREQ=WEEKLY;INTERVAL=2;BYDAY=TU"],
        }),
        start: z
          .string()
          .meta({ description: "The rule's first local date-time in the chat's zone (its DTSTART), `yyyy-MM-ddTHH:mm`.", examples: ["2026-12-08T10:00"] }),
      }),
      z.strictObject({ trigger: z.literal("hook").meta({ description: "No time of its own: only its hook runs it (docs/hooks.md)." }) }),
    ]),
    until: z
      .string()
      .nullable()
      .optional()
      .meta({
        description:
          "Recurring jobs only (null: no end): a local date-time in the chat's zone, `yyyy-MM-ddTHH:mm`, as it was said " +
          "(`until 31 March` is 23:59 that day, and stays so when the zone changes); no run is due after that minute there, " +
          "and the job ends after its last run before it.",
        examples: ["2027-03-31T23:59"],
      }),
    runsLeft: z
      .number()
      .int()
      .nullable()
      .optional()
      .meta({ description: "Recurring jobs only (null: no count): the scheduled runs left; 0 while its last run is in flight. The job ends after the last." }),
    text: z.string().optional().meta({ description: "Prompt jobs only." }),
    command: z.string().optional().meta({ description: "Watchers only." }),
    timeoutSeconds: z.number().int().optional().meta({ description: "Watchers only." }),
    onlyOnChange: z
      .boolean()
      .optional()
      .meta({ description: "Watchers only; present when true: a match equal to the last delivered one is silent (unchanged)." }),
    memoryRefs: z
      .array(z.string())
      .optional()
      .meta({ description: "Prompt jobs only; present when the job refers to memory records, whose current content each fire puts into its prompt." }),
    silent: z.boolean().optional().meta({ description: "Present when true: the job's messages are sent without a notification sound." }),
    model: z
      .string()
      .nullable()
      .meta({ description: "The model its turns run on (one of LLM_MODEL and LLM_MODELS); null: the chat's (docs/agent.md#models).", examples: ["gpt-4o"] }),
    missed: z.enum(MISSED_POLICIES).meta({
      description:
        "What a run missed while the bot was offline does (docs/time.md#missed-runs): once (one late run, the latest), skip (none; recorded skipped), all (each in order, at most 10), ask (a message with Run now and Skip).",
    }),
    grace: z
      .string()
      .meta({ description: "How late an occurrence may run as usual: an ISO 8601 duration from PT0S to P1D; later is missed.", examples: ["PT1M"] }),
    before: z.array(z.string()).meta({
      description: "Notices ahead of each run, as ISO 8601 durations before it, longest first (docs/telegram.md#notices-ahead).",
      examples: [["P1D", "PT1H"]],
    }),
    repeat: z
      .strictObject({ every: z.string(), times: z.number().int() })
      .nullable()
      .meta({
        description:
          "Prompt jobs: its run's message is sent again `every` after the last copy, up to `times` more, until someone acts on it; null: once (docs/telegram.md#nag-until-done).",
        examples: [{ every: "PT10M", times: 6 }],
      }),
    importedFrom: z
      .string()
      .optional()
      .meta({ description: "An imported job's source id, such as `playa:k7m2q`.", examples: ["playa:k7m2q"] }),
    threadId: z
      .number()
      .int()
      .optional()
      .meta({
        description: "The forum topic (`message_thread_id`) its messages and buttons go to: the topic it was created in; absent for the chat's main thread.",
        examples: [42],
      }),
    enabled: z.boolean().meta({ description: "false = paused." }),
    createdAt: instant(),
    createdBy: z.enum(CREATED_BY),
    nextRunAt: instant().nullable().meta({ description: "null when paused, a fired-but-unsettled one-off, or never again." }),
    lastRunAt: instant().nullable(),
    lastResult: lastResultSchema().nullable(),
    running: z.boolean().meta({ description: "A run of this job is in flight." }),
    hook: z.boolean().meta({ description: "The job has a hook: a secret URL (and, with EMAIL_DOMAIN, an address) that runs it (docs/hooks.md)." }),
  }),
);
export type Job = z.infer<ReturnType<typeof jobSchema>>;

/** One occurrence's history entry (docs/api.md#how-a-job-fires). */
export const runSchema = lazy(() =>
  z.strictObject({
    runId: z.string().meta({ description: "`<jobId>:<dueAt epoch ms>`; run now uses the instant it was asked.", examples: ["k7m2q:1790499600000"] }),
    manual: z.boolean(),
    dueAt: instant(),
    startedAt: instant().nullable(),
    finishedAt: instant().nullable(),
    state: z.enum(["claimed", "dispatched", "settled"]),
    status: z.enum(RUN_STATUSES).nullable().meta({ description: "null until settled." }),
    exitCode: z.number().int().nullable(),
    timedOut: z.boolean(),
    late: z.boolean(),
    detail: z
      .string()
      .nullable()
      .meta({
        description: "Why it ended so, when it says more than status.",
        examples: ["still running", "exit 3", "timed out", "did not start: the runner could not be reached (…)", "timed out: no outcome within 300 s + 60 s"],
      }),
    via: z
      .enum(["hook", "email"])
      .optional()
      .meta({ description: "Present when the run was woken by the job's hook: a call of its URL (`hook`) or a mail to its address (`email`)." }),
  }),
);
export type Run = z.infer<ReturnType<typeof runSchema>>;
export type RunState = Run["state"];
export type RunStatus = NonNullable<Run["status"]>;

const TIMEOUT = `"timeoutSeconds" must be a whole number of seconds from ${LIMITS.timeoutMin} to ${LIMITS.timeoutMax}.`;
const MEMORY_REFS = `"memoryRefs" must be a list of up to ${LIMITS.memoryRefs} memory record ids, such as ["m4x7pq"].`;
const MEMORY_REF = `Each of "memoryRefs" must be a memory record id such as "m4x7pq"; see memory_list.`;
const RUNS_LEFT = `"runsLeft" must be a whole number of runs from 1 to ${LIMITS.runsLeft}, such as 10.`;

/**
 * The fields of a create request (docs/api.md#jobs). Their rules are `validateCreate`'s, which counts characters as
 * code points and answers with the count; the lengths given in `meta` only describe them to clients.
 */
export const createJobInput = lazy(() =>
  z
    .strictObject({
      name: str("name", "Inbox summary").meta({ minLength: 1, maxLength: LIMITS.name, examples: ["Inbox summary"] }),
      kind: z
        .enum(["prompt", "watcher", "reminder"], {
          error: (issue) => (issue.input === undefined ? `"kind" is required: "prompt" or "watcher".` : `"kind" must be "prompt" or "watcher".`),
        })
        .meta({ description: "`reminder` (legacy) is stored as a prompt with the text `Remind me: <text>`." }),
      at: str("at", "2026-12-01T09:00")
        .meta({ description: "ISO 8601 date or date-time; without an offset it is read in the chat's zone.", examples: ["2026-12-01T09:00"] })
        .optional(),
      cron: str("cron", "0 8 * * 1-5")
        .meta({ description: "Five fields or a macro, on the chat's wall clock.", examples: ["0 8 * * 1-5"] })
        .optional(),
      delay: str("delay", "PT20M")
        .meta({ description: "ISO 8601 duration from now, 1 minute to 5 years.", examples: ["PT20M"] })
        .optional(),
      rrule: str("rrule", "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU")
        .meta({
          description:
            "An RFC 5545 recurrence rule (the RRULE: prefix may be given), expanded in the chat's zone from `start`: " +
            "every other week, every 3 days, the last weekday of a month. Its COUNT and UNTIL become runsLeft and until.",
          examples: ["FREQ=WEEKLY;INTERVAL=2;BYDAY=TU"],
        })
        .optional(),
      start: str("start", "2026-12-08T10:00")
        .meta({
          description: "With rrule only: its first local date-time in the chat's zone, yyyy-MM-dd[T| ]HH:mm (a date alone = 09:00).",
          examples: ["2026-12-08T10:00"],
        })
        .optional(),
      trigger: z
        .literal("hook", { error: `"trigger" must be "hook": a job that only its hook runs (in place of a time).` })
        .meta({
          description:
            "In place of at, cron, delay and rrule: a job with no time of its own, run only by its hook (docs/hooks.md); the create answer carries the hook's `url` and `email`, shown once.",
        })
        .optional(),
      until: z
        .string({ error: `"until" must be a date or date-time string such as "2026-12-31" or "2026-12-31T18:00", or null for no end.` })
        .nullable()
        .meta({
          description:
            "With cron or rrule only: no run after this time, kept as a local date-time in the chat's zone (a zone change keeps it): " +
            "a local date-time (`2026-12-31T18:00`), a date alone (the end of that day, `2026-12-31` = `2026-12-31T23:59`) or an " +
            "instant with `Z` or an offset (the minute it is in the chat's zone now); null = no end (an edit clears it).",
          examples: ["2026-12-31"],
        })
        .optional(),
      runsLeft: z
        .number({ error: RUNS_LEFT })
        .int({ error: RUNS_LEFT })
        .nullable()
        .meta({
          minimum: 1,
          maximum: LIMITS.runsLeft,
          description: "With cron or rrule only: how many more scheduled runs, then the job ends; null = no count (an edit clears it).",
          examples: [10],
        })
        .optional(),
      text: str("text", "Summarise my inbox")
        .meta({ minLength: 1, maxLength: LIMITS.text, description: "Prompt jobs only: what the agent should do." })
        .optional(),
      command: str("command", "curl -s https://example.com/price")
        .meta({
          minLength: 1,
          maxLength: LIMITS.command,
          description:
            "Watchers only: a /bin/sh script that prints nothing and exits 0 until its condition holds, then prints the facts; non-zero only on a real error.",
        })
        .optional(),
      timeoutSeconds: z
        .number({ error: TIMEOUT })
        .int({ error: TIMEOUT })
        .meta({
          minimum: LIMITS.timeoutMin,
          maximum: LIMITS.timeoutMax,
          description: "Watchers only: seconds before the script's process group is killed; default DEFAULT_SCRIPT_TIMEOUT.",
        })
        .optional(),
      memoryRefs: z
        .array(z.string({ error: MEMORY_REF }), { error: MEMORY_REFS })
        .meta({
          maxItems: LIMITS.memoryRefs,
          description: "Prompt jobs only: up to 5 memory record ids; each fire puts their current content into the prompt.",
          examples: [["m4x7pq"]],
        })
        .optional(),
      onlyOnChange: z
        .boolean({ error: `"onlyOnChange" must be true or false.` })
        .meta({ description: "Watchers only: a match whose output equals the last delivered match's is recorded silent (unchanged) and wakes no one." })
        .optional(),
      silent: z
        .boolean({ error: `"silent" must be true or false.` })
        .meta({ description: "The job's messages (its replies, alerts, watcher matches) are sent without a notification sound; nothing is delayed." })
        .optional(),
      model: z
        .string({ error: `"model" must be the name of one of the bot's models, or null for the chat's.` })
        .nullable()
        .meta({ description: "The model the job's turns run on: LLM_MODEL or one of LLM_MODELS; null (the default) = the chat's model.", examples: ["gpt-4o"] })
        .optional(),
      missed: z
        .string({ error: `"missed" must be "once", "skip", "all" or "ask".` })
        .meta({
          enum: [...MISSED_POLICIES],
          description:
            "What a run missed while the bot was offline does: once (default: one late run, the latest), skip (none; each recorded skipped), all (recurring only: each in order, at most 10), ask (a message with Run now and Skip).",
        })
        .optional(),
      before: z
        .array(z.string({ error: `"before" must be a list of at most 3 ISO 8601 durations from PT1M to P7D, such as ["P1D", "PT1H"].` }), {
          error: `"before" must be a list of at most 3 ISO 8601 durations from PT1M to P7D, such as ["P1D", "PT1H"].`,
        })
        .meta({
          maxItems: 3,
          description:
            "Up to 3 ISO 8601 durations (PT1M to P7D), each shorter than the job's shortest interval: before each run, a notice with Skip this one, no agent turn; [] for none.",
          examples: [["P1D", "PT1H"]],
        })
        .optional(),
      repeat: z
        .strictObject(
          {
            every: z.string({ error: REPEAT_ERROR }),
            times: z.number({ error: REPEAT_ERROR }),
          },
          { error: REPEAT_ERROR },
        )
        .nullable()
        .meta({
          description:
            "Prompt jobs: nag until done. The run's message is sent again every `every` (PT1M to P1D) after the last copy, up to `times` (1–20) more, each marked, until a press on any copy; null: once.",
          examples: [{ every: "PT10M", times: 6 }],
        })
        .optional(),
      grace: str("grace", "PT5M")
        .meta({ description: "An occurrence run later than this after its time was missed: an ISO 8601 duration from PT0S to P1D (default PT1M)." })
        .optional(),
    })
    .meta({
      description:
        'Exactly one of at, cron, delay, rrule (with start; prompts only), or "trigger": "hook" for a job only its hook runs. until and runsLeft end a recurring job. ' +
        "Prompts take text (and memoryRefs); watchers take command (and timeoutSeconds, onlyOnChange).",
    }),
);
export type CreateJobInput = z.infer<ReturnType<typeof createJobInput>>;

/** An edit: the create fields but `kind`, all optional (docs/api.md#jobs). */
export const editJobInput = lazy(() =>
  createJobInput()
    .omit({ kind: true })
    .partial()
    .meta({ description: "The create fields but kind, all optional; at most one of at, cron, delay, rrule (with start). until or runsLeft null clears it." }),
);
export type EditJobInput = z.infer<ReturnType<typeof editJobInput>>;

/** `GET …/jobs?category=&q=`: an empty value means no filter. */
export const jobFilter = lazy(() =>
  z.strictObject({
    category: z
      .enum(CATEGORIES, { error: `"category" must be "one-time", "recurring", "monitoring" or "triggered".` })
      .meta({ description: "Empty means all." })
      .optional(),
    q: z
      .string()
      .max(200, { error: `"q" must be at most 200 characters long.` })
      .meta({ description: "Case-insensitive text in the id, name, text or command; empty means all." })
      .optional(),
  }),
);
export type JobFilter = z.infer<ReturnType<typeof jobFilter>>;

/** `{ chatId, timeZone, now, jobs }`: a chat's jobs with its zone and the current instant. */
export const jobListSchema = lazy(() =>
  z.strictObject({
    chatId: chatId(),
    timeZone: z.string(),
    language: z.enum(LANGS as readonly [Lang, ...Lang[]]).meta({
      description: "The chat's language (docs/telegram.md#language): the one /language set, else the last its users' Telegram apps had of the eight, else en.",
    }),
    now: instant(),
    jobs: z.array(jobSchema()),
  }),
);
export type JobList = z.infer<ReturnType<typeof jobListSchema>>;

/** `{ job }`: the answer of a create, a read, an edit and the job actions. */
export const jobReply = lazy(() => z.strictObject({ job: jobSchema() }));

/** `{ runs }`, newest first. */
export const runList = lazy(() => z.strictObject({ runs: z.array(runSchema()) }));
