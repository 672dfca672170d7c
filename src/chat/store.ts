/**
 * @module The chat's SQL: the only code that reads or writes the Durable Object's tables. Every row read
 * back is parsed with zod; a job row that fails is reported to the caller, which quarantines that job.
 */
import * as z from "zod";
import { lazy } from "../lazy";
import type { JobRecord, RunRecord } from "../jobs/model";
import { LIMITS, lastResultSchema, type LastResult } from "../schemas/jobs";
import type { JobSpec } from "../jobs/validate";

export type { JobRecord, RunRecord };

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
    created_by: z.enum(["user", "agent", "admin"]),
    next_run_at: int.nullable(),
    last_run_at: int.nullable(),
    last_result: z.string().nullable(),
    running_run_id: z.string().nullable(),
    quarantined: z.string().nullable(),
  })
  .transform((r, ctx): JobRecord => {
    let lastResult: LastResult | null = null;
    if (r.last_result !== null) {
      let json: unknown;
      try {
        json = JSON.parse(r.last_result);
      } catch {
        json = undefined;
      }
      const parsed = lastResultSchema().safeParse(json);
      if (!parsed.success) {
        ctx.addIssue({ code: "custom", message: "last_result is not a valid result" });
        return z.NEVER;
      }
      lastResult = parsed.data;
    }
    const schedule: JobSpec["schedule"] =
      r.cron !== null ? { type: "cron", cron: r.cron } : { type: "at", at: r.at_ms ?? Number.NaN };
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

const runRow = lazy(() => {
  const int = z.number().int();
  return z
  .object({
    run_id: z.string(),
    job_id: z.string(),
    manual: z.union([z.literal(0), z.literal(1)]),
    due_at: int,
    started_at: int.nullable(),
    finished_at: int.nullable(),
    state: z.enum(["claimed", "dispatched", "settled"]),
    status: z.enum(["delivered", "silent", "matched", "failed", "skipped"]).nullable(),
    exit_code: int.nullable(),
    timed_out: z.union([z.literal(0), z.literal(1)]),
    late: z.union([z.literal(0), z.literal(1)]),
    detail: z.string().nullable(),
    lease_until: int.nullable(),
    attempts: int,
    message: z.string().nullable(),
  })
  .transform(
    (r): RunRecord => ({
      runId: r.run_id,
      jobId: r.job_id,
      manual: r.manual === 1,
      dueAt: r.due_at,
      startedAt: r.started_at,
      finishedAt: r.finished_at,
      state: r.state,
      status: r.status,
      exitCode: r.exit_code,
      timedOut: r.timed_out === 1,
      late: r.late === 1,
      detail: r.detail,
      leaseUntil: r.lease_until,
      attempts: r.attempts,
      message: r.message,
    }),
  );
});

export type ParsedJobRow = { ok: true; job: JobRecord } | { ok: false; id: string; reason: string };

const JOB_COLUMNS =
  "id, name, kind, at_ms, cron, text, command, timeout_seconds, enabled, created_at, created_by, next_run_at, last_run_at, last_result, running_run_id, quarantined";

/** The chat's tables, over the Durable Object's synchronous SQL API. */
export class ChatStore {
  constructor(private readonly sql: SqlStorage) {}

  // Settings and meta.

  setting(key: string): string | null {
    const row = this.sql.exec<{ value: string }>("SELECT value FROM settings WHERE key = ?", key).toArray()[0];
    return row ? row.value : null;
  }

  setSetting(key: string, value: string | null): void {
    if (value === null) this.sql.exec("DELETE FROM settings WHERE key = ?", key);
    else this.sql.exec("INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value", key, value);
  }

  // Jobs.

  private parseJob(row: Record<string, SqlStorageValue>): ParsedJobRow {
    const parsed = jobRow().safeParse(row);
    if (parsed.success) return { ok: true, job: parsed.data };
    return { ok: false, id: String(row.id ?? "?"), reason: parsed.error.issues.map((i) => `${i.path.join(".") || "row"}: ${i.message}`).join("; ") };
  }

  jobRows(): ParsedJobRow[] {
    return this.sql.exec(`SELECT ${JOB_COLUMNS} FROM jobs ORDER BY created_at, id`).toArray().map((r) => this.parseJob(r));
  }

  jobRow(id: string): ParsedJobRow | null {
    const row = this.sql.exec(`SELECT ${JOB_COLUMNS} FROM jobs WHERE id = ?`, id).toArray()[0];
    return row ? this.parseJob(row) : null;
  }

  /** Jobs due at `now` that are not quarantined, soonest first. */
  dueJobRows(now: number): ParsedJobRow[] {
    return this.sql
      .exec(`SELECT ${JOB_COLUMNS} FROM jobs WHERE next_run_at IS NOT NULL AND next_run_at <= ? AND enabled = 1 AND quarantined IS NULL ORDER BY next_run_at, id`, now)
      .toArray()
      .map((r) => this.parseJob(r));
  }

  /** The name column of a job row, whether or not the row parses (null: no such job). */
  rawJobName(id: string): string | null {
    const row = this.sql.exec<{ name: SqlStorageValue }>("SELECT name FROM jobs WHERE id = ?", id).toArray()[0];
    if (!row) return null;
    return typeof row.name === "string" && row.name !== "" ? row.name : id;
  }

  jobCount(): number {
    return this.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM jobs").one().n;
  }

  jobExists(id: string): boolean {
    return this.sql.exec("SELECT 1 FROM jobs WHERE id = ?", id).toArray().length > 0;
  }

  insertJob(job: JobRecord): void {
    this.sql.exec(
      `INSERT INTO jobs (${JOB_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ...jobValues(job),
    );
  }

  /** Writes every column of the job (one row written). */
  saveJob(job: JobRecord): void {
    const [id, ...rest] = jobValues(job);
    this.sql.exec(
      `UPDATE jobs SET name = ?, kind = ?, at_ms = ?, cron = ?, text = ?, command = ?, timeout_seconds = ?, enabled = ?, created_at = ?, created_by = ?, next_run_at = ?, last_run_at = ?, last_result = ?, running_run_id = ?, quarantined = ? WHERE id = ?`,
      ...rest,
      id,
    );
  }

  quarantineJob(id: string, reason: string, now: number): void {
    const result: LastResult = { status: "failed", at: new Date(now).toISOString() };
    this.sql.exec(
      "UPDATE jobs SET quarantined = ?, next_run_at = NULL, last_result = ? WHERE id = ?",
      reason.slice(0, 500),
      JSON.stringify(result),
      id,
    );
  }

  deleteJob(id: string): void {
    this.sql.exec("DELETE FROM jobs WHERE id = ?", id);
    this.sql.exec("DELETE FROM runs WHERE job_id = ?", id);
  }

  // Runs.

  insertRun(run: RunRecord): void {
    this.sql.exec(
      "INSERT INTO runs (run_id, job_id, manual, due_at, started_at, finished_at, state, status, exit_code, timed_out, late, detail, lease_until, attempts, message) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
      run.runId,
      run.jobId,
      run.manual ? 1 : 0,
      run.dueAt,
      run.startedAt,
      run.finishedAt,
      run.state,
      run.status,
      run.exitCode,
      run.timedOut ? 1 : 0,
      run.late ? 1 : 0,
      run.detail,
      run.leaseUntil,
      run.attempts,
      run.message,
    );
  }

  run(runId: string): RunRecord | null {
    const row = this.sql.exec("SELECT * FROM runs WHERE run_id = ?", runId).toArray()[0];
    if (!row) return null;
    const parsed = runRow().safeParse(row);
    return parsed.success ? parsed.data : null;
  }

  runExists(runId: string): boolean {
    return this.sql.exec("SELECT 1 FROM runs WHERE run_id = ?", runId).toArray().length > 0;
  }

  /** The job's last runs, newest first. */
  runsOf(jobId: string, limit: number = LIMITS.runsKept): RunRecord[] {
    return this.sql
      .exec("SELECT * FROM runs WHERE job_id = ? ORDER BY due_at DESC, run_id DESC LIMIT ?", jobId, limit)
      .toArray()
      .flatMap((row) => {
        const parsed = runRow().safeParse(row);
        return parsed.success ? [parsed.data] : [];
      });
  }

  /**
   * Claimed runs with a message to send at `now`, oldest due first: every new one (also after a crash), and
   * one whose send failed once its retry time (`lease_until`) has come, so that no other dispatch in between
   * spends its attempts early.
   */
  claimedRuns(now: number): RunRecord[] {
    return this.parseRuns(
      this.sql.exec("SELECT * FROM runs WHERE state = 'claimed' AND message IS NOT NULL AND (attempts = 0 OR lease_until <= ?) ORDER BY due_at, run_id", now),
    );
  }

  /** Dispatched runs whose lease ran out at `now`. */
  expiredDispatched(now: number): RunRecord[] {
    return this.parseRuns(this.sql.exec("SELECT * FROM runs WHERE state = 'dispatched' AND lease_until <= ? ORDER BY due_at, run_id", now));
  }

  private parseRuns(cursor: SqlStorageCursor<Record<string, SqlStorageValue>>): RunRecord[] {
    return cursor.toArray().flatMap((row) => {
      const parsed = runRow().safeParse(row);
      return parsed.success ? [parsed.data] : [];
    });
  }

  /** One statement per 50 runs (bound parameters are limited). */
  markDispatched(runIds: readonly string[], startedAt: number, leaseUntil: number): void {
    for (let i = 0; i < runIds.length; i += 50) {
      const chunk = runIds.slice(i, i + 50);
      this.sql.exec(
        `UPDATE runs SET state = 'dispatched', started_at = ?, lease_until = ? WHERE state = 'claimed' AND run_id IN (${chunk.map(() => "?").join(", ")})`,
        startedAt,
        leaseUntil,
        ...chunk,
      );
    }
  }

  /** The claim's change to a job: only the columns it touches (fewer bytes, same one row written). */
  markClaimed(job: Pick<JobRecord, "id" | "nextRunAt" | "runningRunId" | "lastRunAt">): void {
    this.sql.exec("UPDATE jobs SET next_run_at = ?, running_run_id = ?, last_run_at = ? WHERE id = ?", job.nextRunAt, job.runningRunId, job.lastRunAt, job.id);
  }

  /**
   * A settled run's change to its job: `lastResult`, and the in-flight mark when it is this run's. Only these
   * columns: rewriting `next_run_at` would also rewrite its index entry (one more row billed per settle).
   */
  markSettled(jobId: string, runId: string, lastResult: LastResult): void {
    this.sql.exec(
      "UPDATE jobs SET running_run_id = CASE WHEN running_run_id = ? THEN NULL ELSE running_run_id END, last_result = ? WHERE id = ?",
      runId,
      JSON.stringify(lastResult),
      jobId,
    );
  }

  /** A failed send: the runs stay claimed, to be sent again at `retryAt`. */
  deferClaimed(runIds: readonly string[], retryAt: number): void {
    for (const id of runIds) {
      this.sql.exec("UPDATE runs SET lease_until = ?, attempts = attempts + 1 WHERE run_id = ? AND state = 'claimed'", retryAt, id);
    }
  }

  /**
   * A watcher's run that matched becomes a prompt for the agent: claimed again with the prompt as its message
   * and a prompt's lease, to be sent like any claimed prompt (so a crash before the send loses nothing).
   */
  claimAsPrompt(runId: string, message: string, leaseUntil: number): void {
    this.sql.exec(
      "UPDATE runs SET state = 'claimed', message = ?, lease_until = ?, attempts = 0, exit_code = 0 WHERE run_id = ? AND state <> 'settled'",
      message,
      leaseUntil,
      runId,
    );
  }

  /**
   * A watcher's run the runner took: dispatched with the watcher's lease. Only while the run still holds the
   * runner call: an outcome that came back first (settled, or a match re-claimed as a prompt) is kept.
   */
  markStarted(runId: string, prefix: string, startedAt: number, leaseUntil: number): void {
    this.sql.exec(
      "UPDATE runs SET state = 'dispatched', started_at = ?, lease_until = ? WHERE run_id = ? AND state = 'claimed' AND substr(message, 1, ?) = ?",
      startedAt,
      leaseUntil,
      runId,
      prefix.length,
      prefix,
    );
  }

  /** Runs not yet settled whose message starts with `prefix` (the watchers' calls to the runner). */
  openRunsWithMessage(prefix: string): RunRecord[] {
    return this.parseRuns(this.sql.exec("SELECT * FROM runs WHERE state <> 'settled' AND substr(message, 1, ?) = ?", prefix.length, prefix));
  }

  renewLease(runId: string, leaseUntil: number): void {
    this.sql.exec("UPDATE runs SET lease_until = ? WHERE run_id = ?", leaseUntil, runId);
  }

  settleRun(runId: string, fields: { status: NonNullable<RunRecord["status"]>; finishedAt: number; detail: string | null; exitCode?: number | null; timedOut?: boolean }): void {
    this.sql.exec(
      "UPDATE runs SET state = 'settled', status = ?, finished_at = ?, detail = ?, exit_code = ?, timed_out = ?, lease_until = NULL, message = NULL WHERE run_id = ?",
      fields.status,
      fields.finishedAt,
      fields.detail,
      fields.exitCode ?? null,
      fields.timedOut ? 1 : 0,
      runId,
    );
  }

  /** Keeps the last 50 runs of a job; writes nothing while it has fewer. */
  pruneRuns(jobId: string): void {
    this.sql.exec(
      `DELETE FROM runs WHERE job_id = ? AND state = 'settled' AND run_id IN (
         SELECT run_id FROM runs WHERE job_id = ? ORDER BY due_at DESC, run_id DESC LIMIT -1 OFFSET ?)`,
      jobId,
      jobId,
      LIMITS.runsKept,
    );
  }

  /** The soonest time the alarm must wake for: a due job, or an open run's lease or retry. */
  soonest(): number | null {
    const row = this.sql
      .exec<{ t: number | null }>(
        `SELECT MIN(t) AS t FROM (
           SELECT MIN(next_run_at) AS t FROM jobs WHERE next_run_at IS NOT NULL AND enabled = 1 AND quarantined IS NULL
           UNION ALL SELECT MIN(lease_until) AS t FROM runs WHERE state <> 'settled' AND lease_until IS NOT NULL)`,
      )
      .one();
    return row.t;
  }
}

function jobValues(job: JobRecord): SqlStorageValue[] {
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
