/**
 * @module How a job is kept in the chat's `jobs` table (`jobs.ts` is the only code that reads or writes it): one map
 * of a stored job's fields to their columns, with what each may hold, and the row parser, the INSERT's and the
 * UPDATE's values, all read from it. A row that fails to parse is `Unreadable`, naming the column.
 */
import * as z from "zod";
import { COPY_KINDS } from "../../contracts/copy";
import { MEMORY_ID } from "../../contracts/ids";
import { MAX_BEFORE, MAX_BEFORE_SECONDS, MAX_REPEATS } from "../../jobs/before";
import { MAX_GRACE_SECONDS } from "../../jobs/missed";
import type { FailureStreak, JobRecord, JobSpec } from "../../jobs/records";
import { lazy } from "../../lazy";
import { CREATED_BY, JOB_KINDS, LIMITS, lastResultSchema, MISSED_POLICIES } from "../../schemas/jobs";
import { LOCAL_UNTIL } from "../../time/until";

/** Why a stored row is not a job: a sentence naming the column (`at_ms: …`) or the row (`row: …`). */
export class Unreadable {
  constructor(readonly reason: string) {}
}

/** A row's values once the schemas of their columns checked them. */
export type Checked = Readonly<Record<string, unknown>>;

/**
 * How one field of a stored job is kept (docs/api.md#how-a-job-fires: every row read back is parsed): its columns with what each
 * may hold (one object schema of every field's columns checks a row at once), the field read back from the
 * checked values, and their values when the job is written, in the order of `columns`.
 */
type Field<T> = {
  columns: Readonly<Record<string, z.ZodType>>;
  read(row: Checked): T | Unreadable;
  write(value: T): SqlStorageValue[];
};

/** A column that holds the field's own value. */
function column<T extends SqlStorageValue>(name: string, schema: z.ZodType<T>): Field<T> {
  // The row's object schema checked the value with `schema`.
  return { columns: { [name]: schema }, read: (row) => row[name] as T, write: (value) => [value] };
}

/** A true-or-false field, kept as 0 or 1. */
function flag(name: string): Field<boolean> {
  return { columns: { [name]: z.union([z.literal(0), z.literal(1)]) }, read: (row) => row[name] === 1, write: (value) => [value ? 1 : 0] };
}

/** A field kept as JSON text, checked by `schema` when read; `empty` (null, or no items) is kept as NULL. */
function json<T>(name: string, schema: () => z.ZodType<T>, what: string, empty: T): Field<T> {
  return {
    columns: { [name]: z.string().nullable() },
    read: (row) => {
      const text = row[name];
      if (typeof text !== "string") return empty;
      const parsed = schema().safeParse(parseJson(text));
      return parsed.success ? parsed.data : new Unreadable(`row: ${name} is not ${what}`);
    },
    write: (value) => [value === null || (Array.isArray(value) && value.length === 0) ? null : JSON.stringify(value)],
  };
}

/**
 * The schedule: `at_ms` for a one-off, `cron` for a cron job, `rrule` and `rule_start` for a recurrence rule,
 * `only_hook` 1 for a job only its hook runs; a row with none of them is no job.
 */
function schedule(): Field<JobSpec["schedule"]> {
  return {
    columns: {
      at_ms: z.number().int().nullable(),
      cron: z.string().nullable(),
      rrule: z.string().nullable(),
      rule_start: z.string().nullable(),
      only_hook: z.union([z.literal(0), z.literal(1)]),
    },
    read: (row) => {
      if (row.only_hook === 1) return { type: "hook" };
      if (typeof row.cron === "string") return { type: "cron", cron: row.cron };
      if (typeof row.rrule === "string")
        return typeof row.rule_start === "string"
          ? { type: "rule", rrule: row.rrule, start: row.rule_start }
          : new Unreadable("row: an rrule without its rule_start");
      return typeof row.at_ms === "number" ? { type: "at", at: row.at_ms } : new Unreadable("row: none of at_ms, cron and rrule");
    },
    write: (value) => [
      value.type === "at" ? value.at : null,
      value.type === "cron" ? value.cron : null,
      value.type === "rule" ? value.rrule : null,
      value.type === "rule" ? value.start : null,
      value.type === "hook" ? 1 : 0,
    ],
  };
}

const memoryRefsColumn = lazy(() => z.array(z.string().regex(MEMORY_ID)).max(LIMITS.memoryRefs));
const copyColumn = lazy(() => z.strictObject({ messageId: z.number().int().positive(), kind: z.enum(COPY_KINDS) }).nullable());
const repeatColumn = lazy(() =>
  z.strictObject({ everySeconds: z.number().int().min(60).max(86_400), times: z.number().int().min(1).max(MAX_REPEATS) }).nullable(),
);
const beforeColumn = lazy(() => z.array(z.number().int().min(60).max(MAX_BEFORE_SECONDS)).max(MAX_BEFORE));
const streakColumn = lazy((): z.ZodType<FailureStreak> => z.strictObject({ exitCode: z.number().int().nullable(), timedOut: z.boolean() }));

type Fields = { [K in keyof JobRecord]: Field<JobRecord[K]> };

/**
 * The one map of a stored job's fields to the `jobs` table's columns: the row parser, the INSERT and the
 * UPDATE all read it, and its type asks for every field of `JobRecord`, so a new field is one line here (and
 * its migration). Built on first use (nothing at module scope, docs/operations.md).
 */
export const FIELDS = lazy(
  (): Fields => ({
    id: column("id", z.string().regex(/^[a-z2-9]{5}$/)),
    name: column("name", z.string().min(1)),
    kind: column("kind", z.enum(JOB_KINDS)),
    schedule: schedule(),
    until: column("until_local", z.string().regex(LOCAL_UNTIL).nullable()),
    runsLeft: column("runs_left", z.number().int().min(0).max(LIMITS.runsLeft).nullable()),
    text: column("text", z.string().nullable()),
    command: column("command", z.string().nullable()),
    timeoutSeconds: column("timeout_seconds", z.number().int().nullable()),
    enabled: flag("enabled"),
    createdAt: column("created_at", z.number().int()),
    createdBy: column("created_by", z.enum(CREATED_BY)),
    nextRunAt: column("next_run_at", z.number().int().nullable()),
    lastRunAt: column("last_run_at", z.number().int().nullable()),
    lastResult: json("last_result", lastResultSchema, "a valid result", null),
    runningRunId: column("running_run_id", z.string().nullable()),
    quarantined: column("quarantined", z.string().nullable()),
    memoryRefs: json("memory_refs", memoryRefsColumn, "a list of memory record ids", []),
    onlyOnChange: flag("only_on_change"),
    silent: flag("silent"),
    matchHash: column("match_hash", z.string().nullable()),
    streak: json("failure_streak", streakColumn, "a failure", null),
    importedFrom: column("imported_from", z.string().nullable()),
    threadId: column("thread_id", z.number().int().nullable()),
    model: column("model", z.string().min(1).nullable()),
    missed: column("missed", z.enum(MISSED_POLICIES)),
    graceSeconds: column("grace_seconds", z.number().int().min(0).max(MAX_GRACE_SECONDS)),
    before: json("before_json", beforeColumn, "a list of seconds", []),
    noticeAt: column("notice_at", z.number().int().nullable()),
    repeat: json("repeat_json", repeatColumn, "a repetition", null),
    copyOf: json("copy_json", copyColumn, "a message to copy", null),
    hook: column(
      "hook_hash",
      z
        .string()
        .regex(/^[0-9a-f]{64}$/)
        .nullable(),
    ),
  }),
);

// Object.keys forgets the keys' type; they are exactly the map's.
const fieldKeys = lazy(() => Object.keys(FIELDS()) as (keyof JobRecord)[]);
/** Every column, in the map's order: what a whole row reads and writes. */
export const columns = lazy(() => fieldKeys().flatMap((key) => Object.keys(FIELDS()[key].columns)));
export const COLUMNS = lazy(() => columns().join(", "));

/** The object schema of the columns of `keys`' fields: one parse checks a row's values. */
export function rowSchema(keys: readonly (keyof JobRecord)[]) {
  return z.object(Object.assign({}, ...keys.map((key) => FIELDS()[key].columns)) as Record<string, z.ZodType>);
}
const jobRow = lazy(() => rowSchema(fieldKeys()));

/** The columns' values of `job`, in the order of `columns()`. */
export function values(job: JobRecord): SqlStorageValue[] {
  const write = <K extends keyof JobRecord>(key: K): SqlStorageValue[] => FIELDS()[key].write(job[key]);
  return fieldKeys().flatMap(write);
}

/** The fields `keys` of a row that `schema` (theirs) checks, or why it is unreadable. */
export function readFields<K extends keyof JobRecord>(keys: readonly K[], schema: z.ZodType<Checked>, row: unknown): Pick<JobRecord, K> | Unreadable {
  const checked = schema.safeParse(row);
  if (!checked.success) return new Unreadable(checked.error.issues.map((i) => `${i.path.join(".") || "row"}: ${i.message}`).join("; "));
  const read: Partial<Pick<JobRecord, K>> = {};
  for (const key of keys) {
    const value: JobRecord[K] | Unreadable = FIELDS()[key].read(checked.data);
    if (value instanceof Unreadable) return value;
    read[key] = value;
  }
  // Every key was read.
  return read as Pick<JobRecord, K>;
}

/** A whole row as a job, or why it is none. */
export function readJob(row: unknown): JobRecord | Unreadable {
  const job = readFields(fieldKeys(), jobRow(), row);
  if (job instanceof Unreadable) return job;
  if (job.kind === "prompt" ? job.text === null : job.command === null)
    return new Unreadable(`row: a ${job.kind} without its ${job.kind === "prompt" ? "text" : "command"}`);
  return job;
}

/** What a delivery of a job's message reads of its job (`messageFacts()`), by the same map. */
export const MESSAGE_FIELDS = ["kind", "schedule", "name", "text", "memoryRefs", "silent", "threadId", "repeat", "copyOf"] as const;
export const messageRow = lazy(() => rowSchema(MESSAGE_FIELDS));
/** A job as its messages need it: which buttons they carry, what a snooze copies, whether they make a sound. */
export type MessageFacts = Pick<JobRecord, (typeof MESSAGE_FIELDS)[number]>;

/** What `facts()` reads of a job, by the same map. */
export const FACT_FIELDS = ["id", "name", "kind", "schedule", "enabled", "quarantined", "nextRunAt", "hook"] as const;
export const factsRow = lazy(() => rowSchema(FACT_FIELDS));

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
