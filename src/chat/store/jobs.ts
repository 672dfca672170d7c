/**
 * @module The chat's `jobs` table: the only code that reads or writes it. Every row read back is parsed with
 * zod; a row that fails is reported to the caller, which quarantines that job (DESIGN §5).
 */
import * as z from "zod";
import { lazy } from "../../lazy";
import { MEMORY_ID } from "../../contracts/ids";
import { CREATED_BY, LIMITS, lastResultSchema, type JobKind, type LastResult } from "../../schemas/jobs";
import type { FailureStreak, JobRecord, JobSpec } from "../../jobs/records";
import type { Db } from "./db";
import type { JobFacts } from "../../directory/projection";

/** Built on first use (nothing at module scope, DESIGN §12). */
const jobRow = lazy(() => {
  const int = z.number().int();
  return z
    .object({
      id: z.string().regex(/^[a-z2-9]{5}$/),
      name: z.string().min(1),
      kind: z.enum(["prompt", "watcher"]),
      at_ms: int.nullable(),
      cron: z.string().nullable(),
      text: z.string().nullable(),
      command: z.string().nullable(),
      timeout_seconds: int.nullable(),
      enabled: z.union([z.literal(0), z.literal(1)]),
      created_at: int,
      created_by: z.enum(CREATED_BY),
      next_run_at: int.nullable(),
      last_run_at: int.nullable(),
      last_result: z.string().nullable(),
      running_run_id: z.string().nullable(),
      quarantined: z.string().nullable(),
      memory_refs: z.string().nullable(),
      only_on_change: z.union([z.literal(0), z.literal(1)]),
      match_hash: z.string().nullable(),
      failure_streak: z.string().nullable(),
      imported_from: z.string().nullable(),
    })
    .transform((r, ctx): JobRecord => {
      let lastResult: LastResult | null = null;
      if (r.last_result !== null) {
        const parsed = lastResultSchema().safeParse(parseJson(r.last_result));
        if (!parsed.success) {
          ctx.addIssue({ code: "custom", message: "last_result is not a valid result" });
          return z.NEVER;
        }
        lastResult = parsed.data;
      }
      const schedule: JobSpec["schedule"] = r.cron !== null ? { type: "cron", cron: r.cron } : { type: "at", at: r.at_ms ?? Number.NaN };
      if (r.kind === "prompt" ? r.text === null : r.command === null) {
        ctx.addIssue({ code: "custom", message: `a ${r.kind} without its ${r.kind === "prompt" ? "text" : "command"}` });
        return z.NEVER;
      }
      const memoryRefs = r.memory_refs === null ? [] : memoryRefsColumn().safeParse(parseJson(r.memory_refs));
      if (!Array.isArray(memoryRefs) && !memoryRefs.success) {
        ctx.addIssue({ code: "custom", message: "memory_refs is not a list of memory record ids" });
        return z.NEVER;
      }
      const streak = r.failure_streak === null ? null : streakColumn().safeParse(parseJson(r.failure_streak));
      if (streak !== null && !streak.success) {
        ctx.addIssue({ code: "custom", message: "failure_streak is not a failure" });
        return z.NEVER;
      }
      return {
        id: r.id,
        name: r.name,
        kind: r.kind,
        schedule,
        text: r.text,
        command: r.command,
        timeoutSeconds: r.timeout_seconds,
        enabled: r.enabled === 1,
        createdAt: r.created_at,
        createdBy: r.created_by,
        nextRunAt: r.next_run_at,
        lastRunAt: r.last_run_at,
        lastResult,
        runningRunId: r.running_run_id,
        quarantined: r.quarantined,
        memoryRefs: Array.isArray(memoryRefs) ? memoryRefs : memoryRefs.data,
        onlyOnChange: r.only_on_change === 1,
        matchHash: r.match_hash,
        streak: streak === null ? null : streak.data,
        importedFrom: r.imported_from,
      };
    });
});

const memoryRefsColumn = lazy(() => z.array(z.string().regex(MEMORY_ID)).max(LIMITS.memoryRefs));
const streakColumn = lazy((): z.ZodType<FailureStreak> => z.strictObject({ exitCode: z.number().int().nullable(), timedOut: z.boolean() }));

/** A row of `facts()`; a row that does not parse is left out of the directory (the object quarantines it). */
const factsRow = lazy(() =>
  z
    .object({
      id: z.string(),
      name: z.string(),
      kind: z.enum(["prompt", "watcher"]),
      at_ms: z.number().int().nullable(),
      cron: z.string().nullable(),
      enabled: z.union([z.literal(0), z.literal(1)]),
      quarantined: z.string().nullable(),
      next_run_at: z.number().int().nullable(),
      last_status: z.string().nullable(),
    })
    .transform((r): JobFacts => ({
      id: r.id,
      name: r.name,
      kind: r.kind,
      schedule: r.cron !== null ? { type: "cron", cron: r.cron } : { type: "at", at: r.at_ms ?? 0 },
      enabled: r.enabled === 1,
      quarantined: r.quarantined !== null,
      nextRunAt: r.next_run_at,
      lastStatus: r.last_status,
    })),
);

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export type ParsedJobRow = { ok: true; job: JobRecord } | { ok: false; id: string; reason: string };

const COLUMNS =
  "id, name, kind, at_ms, cron, text, command, timeout_seconds, enabled, created_at, created_by, next_run_at, last_run_at, last_result, running_run_id, quarantined, memory_refs, only_on_change, match_hash, failure_streak, imported_from";

export class JobStore {
  /** See `changes()`. */
  private written = 0;

  constructor(private readonly db: Db) {}

  private parse(row: Record<string, SqlStorageValue>): ParsedJobRow {
    const parsed = jobRow().safeParse(row);
    if (parsed.success) return { ok: true, job: parsed.data };
    return { ok: false, id: String(row.id ?? "?"), reason: parsed.error.issues.map((i) => `${i.path.join(".") || "row"}: ${i.message}`).join("; ") };
  }

  /** Every job, oldest first. */
  rows(): ParsedJobRow[] {
    return this.db.sql.exec(`SELECT ${COLUMNS} FROM jobs ORDER BY created_at, id`).toArray().map((r) => this.parse(r));
  }

  row(id: string): ParsedJobRow | null {
    const row = this.db.sql.exec(`SELECT ${COLUMNS} FROM jobs WHERE id = ?`, id).toArray()[0];
    return row ? this.parse(row) : null;
  }

  /** The job, when it exists and its row parses. */
  get(id: string): JobRecord | null {
    const row = this.row(id);
    return row?.ok ? row.job : null;
  }

  /** Jobs due at `now` that are not quarantined, soonest first. */
  due(now: number): ParsedJobRow[] {
    return this.db.sql
      .exec(`SELECT ${COLUMNS} FROM jobs WHERE next_run_at IS NOT NULL AND next_run_at <= ? AND enabled = 1 AND quarantined IS NULL ORDER BY next_run_at, id`, now)
      .toArray()
      .map((r) => this.parse(r));
  }

  /** Whether the chat has a cron job (a zone change then recomputes its next run). */
  hasCron(): boolean {
    return this.db.sql.exec("SELECT 1 FROM jobs WHERE cron IS NOT NULL LIMIT 1").toArray().length > 0;
  }

  /** The name column of a job row, whether or not the row parses (null: no such job). */
  rawName(id: string): string | null {
    const row = this.db.sql.exec<{ name: SqlStorageValue }>("SELECT name FROM jobs WHERE id = ?", id).toArray()[0];
    if (!row) return null;
    return typeof row.name === "string" && row.name !== "" ? row.name : id;
  }

  /** The job's kind, read alone (null: no such job, or a kind this version does not know). */
  kindOf(id: string): JobKind | null {
    const kind = this.db.sql.exec<{ kind: SqlStorageValue }>("SELECT kind FROM jobs WHERE id = ?", id).toArray()[0]?.kind;
    return kind === "prompt" || kind === "watcher" ? kind : null;
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
    this.db.sql.exec(`INSERT INTO jobs (${COLUMNS}) VALUES (${COLUMNS.split(",").map(() => "?").join(", ")})`, ...values(job));
  }

  /** Writes every column of the job (one row written). */
  save(job: JobRecord): void {
    this.written++;
    const [id, ...rest] = values(job);
    this.db.sql.exec(
      `UPDATE jobs SET ${COLUMNS.split(", ").slice(1).map((c) => `${c} = ?`).join(", ")} WHERE id = ?`,
      ...rest,
      id,
    );
  }

  /** The claim's change to a job: only the columns it touches (fewer bytes, same one row written). */
  markClaimed(job: Pick<JobRecord, "id" | "nextRunAt" | "runningRunId" | "lastRunAt">): void {
    this.markClaimedMany([job]);
  }

  /** `markClaimed` for many jobs, 20 to a statement (each binds 4 of a statement's 100 values). */
  markClaimedMany(jobs: readonly Pick<JobRecord, "id" | "nextRunAt" | "runningRunId" | "lastRunAt">[]): void {
    for (let i = 0; i < jobs.length; i += 20) {
      const chunk = jobs.slice(i, i + 20);
      if (chunk.length === 1) {
        const [job] = chunk as [(typeof chunk)[number]];
        this.db.sql.exec("UPDATE jobs SET next_run_at = ?, running_run_id = ?, last_run_at = ? WHERE id = ?", job.nextRunAt, job.runningRunId, job.lastRunAt, job.id);
        continue;
      }
      this.db.sql.exec(
        `UPDATE jobs SET next_run_at = v.column2, running_run_id = v.column3, last_run_at = v.column4 FROM (VALUES ${chunk.map(() => "(?, ?, ?, ?)").join(", ")}) AS v WHERE jobs.id = v.column1`,
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
      .exec(`SELECT ${COLUMNS} FROM jobs WHERE memory_refs LIKE ? ORDER BY created_at, id`, `%"${memoryId}"%`)
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
    return this.db.sql
      .exec("SELECT id, name, kind, at_ms, cron, enabled, quarantined, next_run_at, CASE WHEN json_valid(last_result) THEN json_extract(last_result, '$.status') END AS last_status FROM jobs ORDER BY id")
      .toArray()
      .flatMap((r) => {
        const parsed = factsRow().safeParse(r);
        return parsed.success ? [parsed.data] : [];
      });
  }

  /** The soonest next run of an enabled job that is not quarantined. */
  soonest(): number | null {
    return this.db.sql
      .exec<{ t: number | null }>("SELECT MIN(next_run_at) AS t FROM jobs WHERE next_run_at IS NOT NULL AND enabled = 1 AND quarantined IS NULL")
      .one().t;
  }
}

function values(job: JobRecord): SqlStorageValue[] {
  return [
    job.id,
    job.name,
    job.kind,
    job.schedule.type === "at" ? job.schedule.at : null,
    job.schedule.type === "cron" ? job.schedule.cron : null,
    job.text,
    job.command,
    job.timeoutSeconds,
    job.enabled ? 1 : 0,
    job.createdAt,
    job.createdBy,
    job.nextRunAt,
    job.lastRunAt,
    job.lastResult ? JSON.stringify(job.lastResult) : null,
    job.runningRunId,
    job.quarantined,
    job.memoryRefs.length > 0 ? JSON.stringify(job.memoryRefs) : null,
    job.onlyOnChange ? 1 : 0,
    job.matchHash,
    job.streak ? JSON.stringify(job.streak) : null,
    job.importedFrom,
  ];
}
