/**
 * @module The chat's runs (docs/api.md#how-a-job-fires): each occurrence of a job, from its claim to its settlement, and the last
 * 50 of each job as its history. Two tables, so that a fire writes as few rows as it can (docs/operations.md): `runs`
 * holds the open ones (claimed or dispatched; a handful, read by every alarm without an index), `run_history`
 * the settled ones. Both are keyed by run id alone (`<jobId>:<epoch ms>`, WITHOUT ROWID, no other index): a
 * job's runs are the key range of its id, so a claim writes one row, the dispatch mark one, and settling moves
 * the row. A run's `kind` says what it carries while open (a prompt for the agent, or a watcher's call to the
 * runner); its payload is parsed by that kind when read back.
 */
import * as z from "zod";
import { type PromptMessage, promptMessageSchema } from "../../contracts/prompt-message";
import type { RunPayload, RunRecord } from "../../jobs/records";
import { watcherCallSchema } from "../../jobs/watcher";
import { lazy } from "../../lazy";
import type { RunStatus } from "../../schemas/jobs";
import { LIMITS, RUN_STATUSES } from "../../schemas/jobs";
import { type Db, IDS_PER_STATEMENT, jsonOf } from "./db";

/** Built on first use (nothing at module scope, docs/operations.md): the row, discriminated by `kind`. */
const runRow = lazy(() => {
  const int = z.number().int();
  const flag = z.union([z.literal(0), z.literal(1)]);
  const base = {
    run_id: z.string(),
    job_id: z.string(),
    manual: flag,
    due_at: int,
    started_at: int.nullable(),
    finished_at: int.nullable(),
    state: z.enum(["claimed", "dispatched", "settled"]),
    status: z.enum(RUN_STATUSES).nullable(),
    exit_code: int.nullable(),
    timed_out: flag,
    late: flag,
    detail: z.string().nullable(),
    lease_until: int.nullable(),
    attempts: int,
    resends: int,
    output_hash: z.string().nullable(),
    via: z.enum(["hook", "email"]).nullable(),
  };
  return z
    .discriminatedUnion("kind", [
      z.object({ ...base, kind: z.literal("prompt"), message: jsonOf(promptMessageSchema()).nullable() }),
      z.object({ ...base, kind: z.literal("watcher"), message: jsonOf(watcherCallSchema()).nullable() }),
    ])
    .transform((r): RunRecord => {
      const payload: RunPayload | null =
        r.message === null ? null : r.kind === "prompt" ? { kind: "prompt", message: r.message } : { kind: "watcher", call: r.message };
      return {
        runId: r.run_id,
        jobId: r.job_id,
        kind: r.kind,
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
        resends: r.resends,
        payload,
        outputHash: r.output_hash,
        via: r.via,
      };
    });
});

/** The stored text of a payload: the prompt message, or the watcher's call, as JSON. */
function payloadText(payload: RunPayload | null): string | null {
  if (payload === null) return null;
  return JSON.stringify(payload.kind === "prompt" ? payload.message : payload.call);
}

/** What settling writes to a run. */
export type Settlement = { status: RunStatus; finishedAt: number; detail: string | null; exitCode?: number | null; timedOut?: boolean };

/** The columns of a settled run, read back in the shape of an open one (its state, lease and payload done). */
const SETTLED_AS_RUN =
  "run_id, job_id, kind, manual, due_at, started_at, finished_at, 'settled' AS state, status, exit_code, timed_out, late, detail, " +
  "NULL AS lease_until, 0 AS attempts, resends, NULL AS message, NULL AS output_hash, via";
const SETTLED_COLUMNS = "run_id, job_id, kind, manual, due_at, started_at, finished_at, status, exit_code, timed_out, late, detail, resends, via";

/** The values of SETTLED_COLUMNS for a run, in their order (both tables have these columns). */
function settledValues(run: RunRecord): SqlStorageValue[] {
  const flag = (b: boolean) => (b ? 1 : 0);
  return [
    run.runId,
    run.jobId,
    run.payload?.kind ?? run.kind,
    flag(run.manual),
    run.dueAt,
    run.startedAt,
    run.finishedAt,
    run.status,
    run.exitCode,
    flag(run.timedOut),
    flag(run.late),
    run.detail,
    run.resends,
    run.via,
  ];
}

const marks = (n: number) => Array.from({ length: n }, () => "?").join(", ");
const OPEN_RUNS_PER_STATEMENT = 5;

/** The columns a new claim sets; the others keep their defaults (NULL, 0) until the run moves on. */
const CLAIM_COLUMNS = "run_id, job_id, kind, manual, due_at, late, state, lease_until, message, via";
const CLAIMS_PER_STATEMENT = 10;

/** A run as a claim makes it: nothing of a start, an end, a retry or a re-send yet. */
function isFreshClaim(run: RunRecord): boolean {
  return (
    run.state === "claimed" &&
    run.startedAt === null &&
    run.finishedAt === null &&
    run.status === null &&
    run.exitCode === null &&
    !run.timedOut &&
    run.detail === null &&
    run.attempts === 0 &&
    run.resends === 0 &&
    run.outputHash === null
  );
}
const NONE_KNOWN: ReadonlyMap<string, RunRecord> = new Map();

/** The key range of a job's runs: every run id is `<jobId>:<epoch ms>`, and `;` follows `:` in code order. */
const rangeOf = (jobId: string): [string, string] => [`${jobId}:`, `${jobId};`];

export class RunStore {
  constructor(private readonly db: Db) {}

  private parseAll(cursor: SqlStorageCursor<Record<string, SqlStorageValue>>): RunRecord[] {
    return this.parseRows(cursor.toArray());
  }

  private parseRows(rows: readonly Record<string, SqlStorageValue>[]): RunRecord[] {
    return rows.flatMap((row) => {
      const parsed = runRow().safeParse(row);
      if (parsed.success) return [parsed.data];
      console.error(`run ${String(row.run_id)} is unreadable: ${parsed.error.issues[0]?.message ?? "invalid"}`);
      return [];
    });
  }

  /** A new run: open (claimed) into `runs`, or one settled at once (skipped, failed before it ran) into its history. */
  insert(run: RunRecord): void {
    if (run.state === "settled") {
      const values = settledValues(run);
      this.db.sql.exec(`INSERT INTO run_history (${SETTLED_COLUMNS}) VALUES (${marks(values.length)})`, ...values);
    } else this.insertMany([run]);
  }

  /**
   * New open runs, as many to a statement as its 100 bound values allow: a fresh claim binds only the 9
   * columns a claim sets (10 to a statement), any other open run all 19 (5 to a statement).
   */
  insertMany(runs: readonly RunRecord[]): void {
    const fresh = runs.filter(isFreshClaim);
    const other = runs.filter((run) => !isFreshClaim(run));
    for (let i = 0; i < fresh.length; i += CLAIMS_PER_STATEMENT) this.insertClaims(fresh.slice(i, i + CLAIMS_PER_STATEMENT));
    for (let i = 0; i < other.length; i += OPEN_RUNS_PER_STATEMENT) this.insertOpen(other.slice(i, i + OPEN_RUNS_PER_STATEMENT));
  }

  private insertClaims(runs: readonly RunRecord[]): void {
    const rows = runs.map((run) => [
      run.runId,
      run.jobId,
      run.payload?.kind ?? run.kind,
      run.manual ? 1 : 0,
      run.dueAt,
      run.late ? 1 : 0,
      run.state,
      run.leaseUntil,
      payloadText(run.payload),
      run.via,
    ]);
    this.db.sql.exec(`INSERT INTO runs (${CLAIM_COLUMNS}) VALUES ${rows.map((r) => `(${marks(r.length)})`).join(", ")}`, ...rows.flat());
  }

  private insertOpen(runs: readonly RunRecord[]): void {
    const rows = runs.map((run) => [...settledValues(run), run.state, run.leaseUntil, run.attempts, payloadText(run.payload), run.outputHash]);
    this.db.sql.exec(
      `INSERT INTO runs (${SETTLED_COLUMNS}, state, lease_until, attempts, message, output_hash) VALUES ${rows.map((r) => `(${marks(r.length)})`).join(", ")}`,
      ...rows.flat(),
    );
  }

  /** A run, open or settled. */
  get(runId: string): RunRecord | null {
    return (
      this.parseAll(this.db.sql.exec("SELECT * FROM runs WHERE run_id = ?", runId))[0] ??
      this.parseAll(this.db.sql.exec(`SELECT ${SETTLED_AS_RUN} FROM run_history WHERE run_id = ?`, runId))[0] ??
      null
    );
  }

  /** Whether the run is open (claimed or dispatched): its row is in `runs`. Reads one key, parses nothing. */
  isOpen(runId: string): boolean {
    return this.db.sql.exec("SELECT 1 FROM runs WHERE run_id = ?", runId).toArray().length > 0;
  }

  exists(runId: string): boolean {
    return this.db.sql.exec("SELECT 1 FROM runs WHERE run_id = ? UNION ALL SELECT 1 FROM run_history WHERE run_id = ?", runId, runId).toArray().length > 0;
  }

  /** The job's last runs, open and settled, newest first. */
  of(jobId: string, limit: number = LIMITS.runsKept): RunRecord[] {
    const [from, to] = rangeOf(jobId);
    return this.parseAll(
      this.db.sql.exec(
        "SELECT * FROM (SELECT * FROM runs WHERE run_id >= ? AND run_id < ? " +
          `UNION ALL SELECT ${SETTLED_AS_RUN} FROM run_history WHERE run_id >= ? AND run_id < ?) ` +
          "ORDER BY due_at DESC, run_id DESC LIMIT ?",
        from,
        to,
        from,
        to,
        limit,
      ),
    );
  }

  /**
   * The skipped runs in history due after `after`, of every job or of one: where the skips by hand that have not
   * come yet are found (a zone change, resume and an edit pass over them).
   */
  skippedAfter(after: number, jobId?: string): RunRecord[] {
    const query = `SELECT ${SETTLED_AS_RUN} FROM run_history WHERE status = 'skipped' AND due_at > ?`;
    if (jobId === undefined) return this.parseAll(this.db.sql.exec(query, after));
    const [from, to] = rangeOf(jobId);
    return this.parseAll(this.db.sql.exec(`${query} AND run_id >= ? AND run_id < ?`, after, from, to));
  }

  /** Which of these runs are skipped ones in history: one statement per 50 ids, each a key lookup. */
  skippedAmong(runIds: readonly string[]): RunRecord[] {
    const out: RunRecord[] = [];
    for (let i = 0; i < runIds.length; i += IDS_PER_STATEMENT) {
      const chunk = runIds.slice(i, i + IDS_PER_STATEMENT);
      const query = `SELECT ${SETTLED_AS_RUN} FROM run_history WHERE run_id IN (${marks(chunk.length)}) AND status = 'skipped'`;
      out.push(...this.parseAll(this.db.sql.exec(query, ...chunk)));
    }
    return out;
  }

  /** A settled run taken out of its job's history (a skip by hand moving to the chat's new zone). */
  deleteSettled(runId: string): void {
    this.db.sql.exec("DELETE FROM run_history WHERE run_id = ?", runId);
  }

  /**
   * Claimed runs to send at `now`, oldest due first: every new one (also after a crash), and one whose send
   * failed once its retry time (`lease_until`) has come, so that no other dispatch in between spends its
   * attempts early. `known`: runs the caller has just written, in this same synchronous run, taken as they
   * are instead of parsed again from their rows (the alarm's own claims: a parse costs ~20 µs a run).
   */
  claimed(now: number, known: ReadonlyMap<string, RunRecord> = NONE_KNOWN): RunRecord[] {
    const cursor = this.db.sql.exec(
      "SELECT * FROM runs WHERE state = 'claimed' AND message IS NOT NULL AND (attempts = 0 OR lease_until <= ?) ORDER BY due_at, run_id",
      now,
    );
    if (known.size === 0) return this.parseAll(cursor);
    return cursor.toArray().flatMap((row) => {
      const record = typeof row.run_id === "string" ? known.get(row.run_id) : undefined;
      return record ? [record] : this.parseRows([row]);
    });
  }

  /** Dispatched runs whose lease ran out at `now`. */
  expired(now: number): RunRecord[] {
    return this.parseAll(this.db.sql.exec("SELECT * FROM runs WHERE state = 'dispatched' AND lease_until <= ? ORDER BY due_at, run_id", now));
  }

  /** Open runs of a kind: for `watcher`, the runs the runner may be running now (claimed or started). */
  open(kind: RunPayload["kind"]): RunRecord[] {
    return this.parseAll(this.db.sql.exec("SELECT * FROM runs WHERE kind = ?", kind));
  }

  /** Sent runs become dispatched, with the time by which the run gate must have seen them; one statement per 50 runs. */
  markDispatched(runIds: readonly string[], startedAt: number, leaseUntil: number): void {
    for (let i = 0; i < runIds.length; i += IDS_PER_STATEMENT) {
      const chunk = runIds.slice(i, i + IDS_PER_STATEMENT);
      this.db.sql.exec(
        `UPDATE runs SET state = 'dispatched', started_at = ?, lease_until = ? WHERE state = 'claimed' AND run_id IN (${chunk.map(() => "?").join(", ")})`,
        startedAt,
        leaseUntil,
        ...chunk,
      );
    }
  }

  /**
   * A dispatched prompt that never reached the run gate (docs/agent.md#the-lease): claimed again, to be sent by the
   * next dispatch, with the re-send counted.
   */
  resend(runId: string, now: number): void {
    this.db.sql.exec(
      "UPDATE runs SET state = 'claimed', attempts = 0, resends = resends + 1, lease_until = ? WHERE run_id = ? AND state = 'dispatched'",
      now,
      runId,
    );
  }

  /** A failed send: the runs stay claimed, to be sent again at `retryAt`. */
  deferClaimed(runIds: readonly string[], retryAt: number): void {
    for (const id of runIds) {
      this.db.sql.exec("UPDATE runs SET lease_until = ?, attempts = attempts + 1 WHERE run_id = ? AND state = 'claimed'", retryAt, id);
    }
  }

  /**
   * A watcher's run that matched becomes a prompt for the agent: claimed again with the prompt as its payload
   * and a prompt's lease, to be sent like any claimed prompt (so a crash before the send loses nothing). The
   * output's hash waits with it, to become the job's once the match is delivered.
   */
  claimAsPrompt(runId: string, message: PromptMessage, leaseUntil: number, outputHash: string): void {
    this.db.sql.exec(
      "UPDATE runs SET kind = 'prompt', state = 'claimed', message = ?, lease_until = ?, attempts = 0, exit_code = 0, output_hash = ? WHERE run_id = ?",
      JSON.stringify(message),
      leaseUntil,
      outputHash,
      runId,
    );
  }

  /**
   * A watcher's run the runner took: dispatched with the watcher's lease. Only while the run still holds the
   * runner call: an outcome that came back first (settled, or a match re-claimed as a prompt) is kept.
   */
  markStarted(runId: string, startedAt: number, leaseUntil: number): void {
    this.db.sql.exec(
      "UPDATE runs SET state = 'dispatched', started_at = ?, lease_until = ? WHERE run_id = ? AND state = 'claimed' AND kind = 'watcher'",
      startedAt,
      leaseUntil,
      runId,
    );
  }

  renewLease(runId: string, leaseUntil: number): void {
    this.db.sql.exec("UPDATE runs SET lease_until = ? WHERE run_id = ?", leaseUntil, runId);
  }

  /** An open run ends: moved to its job's history with its outcome (inside the caller's transaction). */
  settle(runId: string, fields: Settlement): void {
    this.db.sql.exec(
      `INSERT INTO run_history (${SETTLED_COLUMNS}) ` +
        "SELECT run_id, job_id, kind, manual, due_at, started_at, ?, ?, ?, ?, late, ?, resends, via FROM runs WHERE run_id = ?",
      fields.finishedAt,
      fields.status,
      fields.exitCode ?? null,
      fields.timedOut ? 1 : 0,
      fields.detail,
      runId,
    );
    this.db.sql.exec("DELETE FROM runs WHERE run_id = ?", runId);
  }

  /** Keeps the last 50 settled runs of a job; writes nothing while it has fewer. */
  prune(jobId: string): void {
    const [from, to] = rangeOf(jobId);
    this.db.sql.exec(
      `DELETE FROM run_history WHERE run_id IN (
         SELECT run_id FROM run_history WHERE run_id >= ? AND run_id < ? ORDER BY due_at DESC, run_id DESC LIMIT -1 OFFSET ?)`,
      from,
      to,
      LIMITS.runsKept,
    );
  }

  /** Every run of a job, open or settled (the job is gone). */
  deleteOf(jobId: string): void {
    const [from, to] = rangeOf(jobId);
    this.db.sql.exec("DELETE FROM runs WHERE run_id >= ? AND run_id < ?", from, to);
    this.db.sql.exec("DELETE FROM run_history WHERE run_id >= ? AND run_id < ?", from, to);
  }

  /** The soonest lease or retry time of an open run. */
  soonest(): number | null {
    return this.db.sql.exec<{ t: number | null }>("SELECT MIN(lease_until) AS t FROM runs WHERE lease_until IS NOT NULL").one().t;
  }
}
