/**
 * @module The chat's `jobs` table: the only code that reads or writes it. Every row read back is parsed with
 * zod; a row that fails is reported to the caller, which quarantines that job (DESIGN §5).
 */
import * as z from "zod";
import { lazy } from "../../lazy";
import { CREATED_BY, lastResultSchema, type LastResult } from "../../schemas/jobs";
import type { JobRecord, JobSpec } from "../../jobs/records";
import type { Db } from "./db";

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
      };
    });
});

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export type ParsedJobRow = { ok: true; job: JobRecord } | { ok: false; id: string; reason: string };

const COLUMNS =
  "id, name, kind, at_ms, cron, text, command, timeout_seconds, enabled, created_at, created_by, next_run_at, last_run_at, last_result, running_run_id, quarantined";

export class JobStore {
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

  /** Whether a cron job is among the jobs `due(now)` returns (the alarm then loads cron-parser first). */
  cronDue(now: number): boolean {
    return (
      this.db.sql.exec("SELECT 1 FROM jobs WHERE next_run_at IS NOT NULL AND next_run_at <= ? AND enabled = 1 AND quarantined IS NULL AND cron IS NOT NULL LIMIT 1", now).toArray()
        .length > 0
    );
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

  count(): number {
    return this.db.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM jobs").one().n;
  }

  exists(id: string): boolean {
    return this.db.sql.exec("SELECT 1 FROM jobs WHERE id = ?", id).toArray().length > 0;
  }

  insert(job: JobRecord): void {
    this.db.sql.exec(`INSERT INTO jobs (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, ...values(job));
  }

  /** Writes every column of the job (one row written). */
  save(job: JobRecord): void {
    const [id, ...rest] = values(job);
    this.db.sql.exec(
      `UPDATE jobs SET name = ?, kind = ?, at_ms = ?, cron = ?, text = ?, command = ?, timeout_seconds = ?, enabled = ?, created_at = ?, created_by = ?, next_run_at = ?, last_run_at = ?, last_result = ?, running_run_id = ?, quarantined = ? WHERE id = ?`,
      ...rest,
      id,
    );
  }

  /** The claim's change to a job: only the columns it touches (fewer bytes, same one row written). */
  markClaimed(job: Pick<JobRecord, "id" | "nextRunAt" | "runningRunId" | "lastRunAt">): void {
    this.db.sql.exec("UPDATE jobs SET next_run_at = ?, running_run_id = ?, last_run_at = ? WHERE id = ?", job.nextRunAt, job.runningRunId, job.lastRunAt, job.id);
  }

  /**
   * A settled run's change to its job: `lastResult`, and the in-flight mark when it is this run's. Only these
   * columns: rewriting `next_run_at` would also rewrite its index entry (one more row billed per settle).
   */
  markSettled(jobId: string, runId: string, lastResult: LastResult): void {
    this.db.sql.exec(
      "UPDATE jobs SET running_run_id = CASE WHEN running_run_id = ? THEN NULL ELSE running_run_id END, last_result = ? WHERE id = ?",
      runId,
      JSON.stringify(lastResult),
      jobId,
    );
  }

  quarantine(id: string, reason: string, now: number): void {
    const result: LastResult = { status: "failed", at: new Date(now).toISOString() };
    this.db.sql.exec("UPDATE jobs SET quarantined = ?, next_run_at = NULL, last_result = ? WHERE id = ?", reason.slice(0, 500), JSON.stringify(result), id);
  }

  /** Removes the job and its runs. */
  delete(id: string): void {
    this.db.sql.exec("DELETE FROM jobs WHERE id = ?", id);
    this.db.sql.exec("DELETE FROM runs WHERE job_id = ?", id);
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
  ];
}
