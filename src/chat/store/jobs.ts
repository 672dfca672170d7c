/**
 * @module The chat's `jobs` table: the only code that reads or writes it. Every row read back is parsed with
 * zod; a row that fails is reported to the caller, which quarantines that job (docs/api.md#how-a-job-fires).
 */
import * as z from "zod";
import { MEMORY_ID } from "../../contracts/ids";
import type { JobFacts } from "../../directory/projection";
import { MAX_GRACE_SECONDS } from "../../jobs/missed";
import type { FailureStreak, JobRecord, JobSpec } from "../../jobs/records";
import { lazy } from "../../lazy";
import { CREATED_BY, JOB_KINDS, type LastResult, LIMITS, lastResultSchema, MISSED_POLICIES } from "../../schemas/jobs";
import { LOCAL_UNTIL } from "../../time/until";
import type { Db } from "./db";

/** Why a stored row is not a job: a sentence naming the column (`at_ms: …`) or the row (`row: …`). */
class Unreadable {
  constructor(readonly reason: string) {}
}

/** A row's values once the schemas of their columns checked them. */
type Checked = Readonly<Record<string, unknown>>;

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
const streakColumn = lazy((): z.ZodType<FailureStreak> => z.strictObject({ exitCode: z.number().int().nullable(), timedOut: z.boolean() }));

type Fields = { [K in keyof JobRecord]: Field<JobRecord[K]> };

/**
 * The one map of a stored job's fields to the `jobs` table's columns: the row parser, the INSERT and the
 * UPDATE all read it, and its type asks for every field of `JobRecord`, so a new field is one line here (and
 * its migration). Built on first use (nothing at module scope, docs/operations.md).
 */
const FIELDS = lazy(
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
const columns = lazy(() => fieldKeys().flatMap((key) => Object.keys(FIELDS()[key].columns)));
const COLUMNS = lazy(() => columns().join(", "));

/** The object schema of the columns of `keys`' fields: one parse checks a row's values. */
function rowSchema(keys: readonly (keyof JobRecord)[]) {
  return z.object(Object.assign({}, ...keys.map((key) => FIELDS()[key].columns)) as Record<string, z.ZodType>);
}
const jobRow = lazy(() => rowSchema(fieldKeys()));

/** The columns' values of `job`, in the order of `columns()`. */
function values(job: JobRecord): SqlStorageValue[] {
  const write = <K extends keyof JobRecord>(key: K): SqlStorageValue[] => FIELDS()[key].write(job[key]);
  return fieldKeys().flatMap(write);
}

/** The fields `keys` of a row that `schema` (theirs) checks, or why it is unreadable. */
function readFields<K extends keyof JobRecord>(keys: readonly K[], schema: z.ZodType<Checked>, row: unknown): Pick<JobRecord, K> | Unreadable {
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
function readJob(row: unknown): JobRecord | Unreadable {
  const job = readFields(fieldKeys(), jobRow(), row);
  if (job instanceof Unreadable) return job;
  if (job.kind === "prompt" ? job.text === null : job.command === null)
    return new Unreadable(`row: a ${job.kind} without its ${job.kind === "prompt" ? "text" : "command"}`);
  return job;
}

/** What a delivery of a job's message reads of its job (`messageFacts()`), by the same map. */
const MESSAGE_FIELDS = ["kind", "schedule", "name", "text", "memoryRefs", "silent", "threadId"] as const;
const messageRow = lazy(() => rowSchema(MESSAGE_FIELDS));
/** A job as its messages need it: which buttons they carry, what a snooze copies, whether they make a sound. */
export type MessageFacts = Pick<JobRecord, (typeof MESSAGE_FIELDS)[number]>;

/** What `facts()` reads of a job, by the same map. */
const FACT_FIELDS = ["id", "name", "kind", "schedule", "enabled", "quarantined", "nextRunAt", "hook"] as const;
const factsRow = lazy(() => rowSchema(FACT_FIELDS));

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** What a claim changes of a job: its next run, the in-flight mark, the last run's time, and its runs left. */
type Claimed = Pick<JobRecord, "id" | "nextRunAt" | "runningRunId" | "lastRunAt" | "runsLeft">;

/** A job whose next run may come: enabled, not quarantined, and not one that runs each missed occurrence while a run of it is in flight. */
const MAY_FIRE = "enabled = 1 AND quarantined IS NULL AND (running_run_id IS NULL OR missed <> 'all')";

export type ParsedJobRow = { ok: true; job: JobRecord } | { ok: false; id: string; reason: string };

export class JobStore {
  /** See `changes()`. */
  private written = 0;

  constructor(private readonly db: Db) {}

  private parse(row: Record<string, SqlStorageValue>): ParsedJobRow {
    const job = readJob(row);
    return job instanceof Unreadable ? { ok: false, id: String(row.id ?? "?"), reason: job.reason } : { ok: true, job };
  }

  /** Every job, oldest first. */
  rows(): ParsedJobRow[] {
    return this.db.sql
      .exec(`SELECT ${COLUMNS()} FROM jobs ORDER BY created_at, id`)
      .toArray()
      .map((r) => this.parse(r));
  }

  row(id: string): ParsedJobRow | null {
    const row = this.db.sql.exec(`SELECT ${COLUMNS()} FROM jobs WHERE id = ?`, id).toArray()[0];
    return row ? this.parse(row) : null;
  }

  /** The job, when it exists and its row parses. */
  get(id: string): JobRecord | null {
    const row = this.row(id);
    return row?.ok ? row.job : null;
  }

  /**
   * Jobs due at `now` that are not quarantined, soonest first. A job that runs each missed occurrence (`missed` all)
   * waits while a run of it is in flight: its next one starts when that run ends (docs/time.md#missed-runs).
   */
  due(now: number): ParsedJobRow[] {
    return this.db.sql
      .exec(`SELECT ${COLUMNS()} FROM jobs WHERE next_run_at IS NOT NULL AND next_run_at <= ? AND ${MAY_FIRE} ORDER BY next_run_at, id`, now)
      .toArray()
      .map((r) => this.parse(r));
  }

  /** The name column of a job row, whether or not the row parses (null: no such job). */
  rawName(id: string): string | null {
    const row = this.db.sql.exec<{ name: SqlStorageValue }>("SELECT name FROM jobs WHERE id = ?", id).toArray()[0];
    if (!row) return null;
    return typeof row.name === "string" && row.name !== "" ? row.name : id;
  }

  /** The job whose hook's token hashes to `hash` (null: none, or a row that does not parse). */
  byHook(hash: string): JobRecord | null {
    const row = this.db.sql.exec(`SELECT ${COLUMNS()} FROM jobs WHERE hook_hash = ?`, hash).toArray()[0];
    const parsed = row ? this.parse(row) : null;
    return parsed?.ok ? parsed.job : null;
  }

  /** The job's forum topic, read alone (null: the main thread, or no such job). */
  threadOf(id: string): number | null {
    const thread = this.db.sql.exec<{ thread_id: SqlStorageValue }>("SELECT thread_id FROM jobs WHERE id = ?", id).toArray()[0]?.thread_id;
    return typeof thread === "number" ? thread : null;
  }

  /** A forum topic is gone: its jobs send to the main thread from now on. Returns their ids and names, oldest first. */
  leaveThread(threadId: number): { id: string; name: string }[] {
    const jobs = this.db.sql
      .exec<{ id: string; name: string }>("SELECT id, name FROM jobs WHERE thread_id = ? ORDER BY created_at, id", threadId)
      .toArray()
      .map((j) => ({ id: String(j.id), name: String(j.name) }));
    if (jobs.length === 0) return jobs;
    this.written++;
    this.db.sql.exec("UPDATE jobs SET thread_id = NULL WHERE thread_id = ?", threadId);
    return jobs;
  }

  /** What a delivery of the job's message needs of it, read alone (null: no such job, or a row that does not parse). */
  messageFacts(id: string): MessageFacts | null {
    const columns = MESSAGE_FIELDS.flatMap((key) => Object.keys(FIELDS()[key].columns)).join(", ");
    const row = this.db.sql.exec(`SELECT ${columns} FROM jobs WHERE id = ?`, id).toArray()[0];
    const job = row ? readFields(MESSAGE_FIELDS, messageRow(), row) : null;
    return job === null || job instanceof Unreadable ? null : job;
  }

  count(): number {
    return this.db.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM jobs").one().n;
  }

  exists(id: string): boolean {
    return this.db.sql.exec("SELECT 1 FROM jobs WHERE id = ?", id).toArray().length > 0;
  }

  /**
   * How many writes could have changed what the D1 directory shows of the jobs: every write but a claim's,
   * which touches only what the directory leaves out (the in-flight mark, the last run's time, and the next
   * run, which a cron job's row leaves out of its fingerprint and a one-off's replaces with its `at`). The
   * directory compares it with its last sync's to skip reading every job again when nothing changed.
   */
  changes(): number {
    return this.written;
  }

  insert(job: JobRecord): void {
    this.written++;
    this.db.sql.exec(
      `INSERT INTO jobs (${COLUMNS()}) VALUES (${columns()
        .map(() => "?")
        .join(", ")})`,
      ...values(job),
    );
  }

  /** Writes every column of the job (one row written). */
  save(job: JobRecord): void {
    this.written++;
    const [id, ...rest] = values(job);
    this.db.sql.exec(
      `UPDATE jobs SET ${columns()
        .slice(1)
        .map((c) => `${c} = ?`)
        .join(", ")} WHERE id = ?`,
      ...rest,
      id,
    );
  }

  /** The claim's change to a job: only the columns it touches (fewer bytes, same one row written). */
  markClaimed(job: Claimed): void {
    this.markClaimedMany([job]);
  }

  /**
   * `markClaimed` for many jobs, 20 to a statement (each binds 4 of a statement's 100 values). A job that counts
   * its runs (`runsLeft`, docs/time.md#jobs-that-end-until-and-runsleft) has its count written too, in a statement of its own.
   */
  markClaimedMany(jobs: readonly Claimed[]): void {
    const counting = jobs.filter((job) => job.runsLeft !== null);
    const plain = counting.length === 0 ? jobs : jobs.filter((job) => job.runsLeft === null);
    for (const job of counting) {
      this.db.sql.exec(
        "UPDATE jobs SET next_run_at = ?, running_run_id = ?, last_run_at = ?, runs_left = ? WHERE id = ?",
        job.nextRunAt,
        job.runningRunId,
        job.lastRunAt,
        job.runsLeft,
        job.id,
      );
    }
    for (let i = 0; i < plain.length; i += 20) {
      const chunk = plain.slice(i, i + 20);
      if (chunk.length === 1) {
        const [job] = chunk as [(typeof chunk)[number]];
        this.db.sql.exec(
          "UPDATE jobs SET next_run_at = ?, running_run_id = ?, last_run_at = ? WHERE id = ?",
          job.nextRunAt,
          job.runningRunId,
          job.lastRunAt,
          job.id,
        );
        continue;
      }
      this.db.sql.exec(
        "UPDATE jobs SET next_run_at = v.column2, running_run_id = v.column3, last_run_at = v.column4 " +
          `FROM (VALUES ${chunk.map(() => "(?, ?, ?, ?)").join(", ")}) AS v WHERE jobs.id = v.column1`,
        ...chunk.flatMap((job) => [job.id, job.nextRunAt, job.runningRunId, job.lastRunAt]),
      );
    }
  }

  /**
   * A settled run's change to its job: `lastResult`, and the in-flight mark when it is this run's; for a
   * watcher, its failure streak (`streak`; undefined leaves it) and the hash of a delivered match. Only these
   * columns: rewriting `next_run_at` would also rewrite its index entry (one more row billed per settle).
   */
  markSettled(jobId: string, runId: string, lastResult: LastResult, watcher: { streak?: FailureStreak | null; matchHash?: string } = {}): void {
    this.written++;
    const sets = ["running_run_id = CASE WHEN running_run_id = ? THEN NULL ELSE running_run_id END", "last_result = ?"];
    const args: SqlStorageValue[] = [runId, JSON.stringify(lastResult)];
    if (watcher.streak !== undefined) {
      sets.push("failure_streak = ?");
      args.push(watcher.streak === null ? null : JSON.stringify(watcher.streak));
    }
    if (watcher.matchHash !== undefined) {
      sets.push("match_hash = ?");
      args.push(watcher.matchHash);
    }
    this.db.sql.exec(`UPDATE jobs SET ${sets.join(", ")} WHERE id = ?`, ...args, jobId);
  }

  /** A row that does not parse, or a job that cannot run: out of the alarm's way, its streak ended. */
  quarantine(id: string, reason: string, now: number): void {
    this.written++;
    const result: LastResult = { status: "failed", at: new Date(now).toISOString() };
    this.db.sql.exec(
      "UPDATE jobs SET quarantined = ?, next_run_at = NULL, last_result = ?, failure_streak = NULL WHERE id = ?",
      reason.slice(0, 500),
      JSON.stringify(result),
      id,
    );
  }

  /** The jobs that refer to a memory record, oldest first (for the sentence a delete answers). */
  referring(memoryId: string): string[] {
    // The quoted id only narrows the rows read; each candidate is parsed and checked.
    return this.db.sql
      .exec(`SELECT ${COLUMNS()} FROM jobs WHERE memory_refs LIKE ? ORDER BY created_at, id`, `%"${memoryId}"%`)
      .toArray()
      .map((r) => this.parse(r))
      .flatMap((row) => (row.ok && row.job.memoryRefs.includes(memoryId) ? [row.job.id] : []));
  }

  /** Removes the job (its runs are `RunStore.deleteOf`'s). */
  delete(id: string): void {
    this.written++;
    this.db.sql.exec("DELETE FROM jobs WHERE id = ?", id);
  }

  /**
   * What the D1 directory shows of every job (`directory/projection.ts`): a light read of the columns it needs,
   * run on every call, so the whole row (text, command) is neither read nor parsed.
   */
  facts(): JobFacts[] {
    const read = FACT_FIELDS.flatMap((key) => Object.keys(FIELDS()[key].columns)).join(", ");
    return this.db.sql
      .exec(`SELECT ${read}, CASE WHEN json_valid(last_result) THEN json_extract(last_result, '$.status') END AS last_status FROM jobs ORDER BY id`)
      .toArray()
      .flatMap((row) => {
        const job = readFields(FACT_FIELDS, factsRow(), row);
        if (job instanceof Unreadable) return [];
        const lastStatus = typeof row.last_status === "string" ? row.last_status : null;
        return [{ ...job, quarantined: job.quarantined !== null, lastStatus }];
      });
  }

  /** The soonest next run of an enabled job that is not quarantined (nor waiting for its run in flight, as `due`). */
  soonest(): number | null {
    return this.db.sql.exec<{ t: number | null }>(`SELECT MIN(next_run_at) AS t FROM jobs WHERE next_run_at IS NOT NULL AND ${MAY_FIRE}`).one().t;
  }
}
