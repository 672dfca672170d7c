/**
 * @module The chat's `jobs` table: the only code that reads or writes it. Every row read back is parsed with
 * zod; a row that fails is reported to the caller, which quarantines that job (docs/api.md#how-a-job-fires).
 */
import type { JobFacts } from "../../directory/projection";
import { noticeAt } from "../../jobs/before";
import type { FailureStreak, JobRecord } from "../../jobs/records";
import type { LastResult } from "../../schemas/jobs";
import type { Db } from "./db";
import {
  COLUMNS,
  columns,
  FACT_FIELDS,
  FIELDS,
  factsRow,
  MESSAGE_FIELDS,
  type MessageFacts,
  messageRow,
  readFields,
  readJob,
  Unreadable,
  values,
} from "./job-rows";
import type { Flag } from "./settings";

export type { MessageFacts };

/** What a claim changes of a job: its next run, the in-flight mark, the last run's time, and its runs left. */
type Claimed = Pick<JobRecord, "id" | "nextRunAt" | "runningRunId" | "lastRunAt" | "runsLeft" | "enabled" | "before">;

/** A job whose next run may come: enabled, not quarantined, and not one that runs each missed occurrence while a run of it is in flight. */
const MAY_FIRE = "enabled = 1 AND quarantined IS NULL AND (running_run_id IS NULL OR missed <> 'all')";

/** A job whose notices may be sent: enabled and not quarantined. */
const NOTICEABLE = "enabled = 1 AND quarantined IS NULL";

export type ParsedJobRow = { ok: true; job: JobRecord } | { ok: false; id: string; reason: string };

export class JobStore {
  /** See `changes()`. */
  private written = 0;

  /**
   * `now`: the object's clock, from which a job's next notice ahead of a run is found whenever the job is written.
   * `notices`: whether a job may have a notice to come, a setting (read with the others in one statement), so that
   * a chat with none asks nothing more of them, at every alarm and RPC.
   */
  constructor(
    private readonly db: Db,
    private readonly now: () => number = Date.now,
    private readonly notices: Flag = { get: () => true, set: () => {} },
  ) {}

  /** The job as it is written: its next notice found anew from its next run (docs/telegram.md#notices-ahead). */
  private withNotice(job: JobRecord): JobRecord {
    if (job.before.length === 0 && job.noticeAt === null) return job;
    const at = noticeAt(job, this.now());
    if (at !== null) this.notices.set(true);
    return { ...job, noticeAt: at };
  }

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
      ...values(this.withNotice(job)),
    );
  }

  /** Writes every column of the job (one row written). */
  save(job: JobRecord): void {
    this.written++;
    const [id, ...rest] = values(this.withNotice(job));
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
    const own = (job: Claimed) => job.runsLeft !== null || job.before.length > 0;
    const counting = jobs.filter(own);
    const plain = counting.length === 0 ? jobs : jobs.filter((job) => !own(job));
    for (const job of counting) {
      const notice = noticeAt(job, this.now());
      if (notice !== null) this.notices.set(true);
      this.db.sql.exec(
        "UPDATE jobs SET next_run_at = ?, running_run_id = ?, last_run_at = ?, runs_left = ?, notice_at = ? WHERE id = ?",
        job.nextRunAt,
        job.runningRunId,
        job.lastRunAt,
        job.runsLeft,
        notice,
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

  /**
   * The soonest next run of an enabled job that is not quarantined (nor waiting for its run in flight, as `due`), or
   * of a notice ahead of one.
   */
  soonest(): number | null {
    const run = this.db.sql.exec<{ t: number | null }>(`SELECT MIN(next_run_at) AS t FROM jobs WHERE next_run_at IS NOT NULL AND ${MAY_FIRE}`).one().t;
    if (!this.notices.get()) return run;
    const notice = this.db.sql.exec<{ t: number | null }>(`SELECT MIN(notice_at) AS t FROM jobs WHERE notice_at IS NOT NULL AND ${NOTICEABLE}`).one().t;
    if (notice === null) this.notices.set(false);
    return run === null ? notice : notice === null ? run : Math.min(run, notice);
  }

  /** Jobs whose notice ahead of a run is due at `now` (docs/telegram.md#notices-ahead), soonest first. */
  noticesDue(now: number): ParsedJobRow[] {
    if (!this.notices.get()) return [];
    return this.db.sql
      .exec(`SELECT ${COLUMNS()} FROM jobs WHERE notice_at IS NOT NULL AND notice_at <= ? AND ${NOTICEABLE} ORDER BY notice_at, id`, now)
      .toArray()
      .map((r) => this.parse(r));
  }

  /** A notice was sent (or passed): the job's next one, found from now. */
  noticeSent(job: JobRecord): void {
    const notice = noticeAt(job, this.now());
    if (notice !== null) this.notices.set(true);
    this.db.sql.exec("UPDATE jobs SET notice_at = ? WHERE id = ?", notice, job.id);
  }
}
