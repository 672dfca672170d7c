/**
 * @module What the chat's hooks took (docs/hooks.md): `hook_calls`, every call and mail a hook accepted in the last 24
 * hours (the hourly limit counts them, and a repeated `Idempotency-Key`, `X-GitHub-Delivery` or Message-ID finds the
 * run its first one made), and `hook_waiting`, the ones waiting with their input while a run of their job is in flight.
 */
import * as z from "zod";
import type { RunVia } from "../../hooks/input";
import { lazy } from "../../lazy";
import type { Db } from "./db";

/** How long a key is remembered: a repeat within this answers the first call's run and runs nothing. */
export const KEY_KEPT_MS = 24 * 60 * 60_000;
/** The window of the hourly limit. */
export const HOUR_MS = 60 * 60_000;

/** A call waiting for its job's run in flight to end: the run it will be, and what it carries. */
export type WaitingCall = { runId: string; jobId: string; acceptedAt: number; via: RunVia; input: string };

const waitingRow = lazy(() =>
  z.object({ run_id: z.string(), job_id: z.string(), accepted_at: z.number().int(), via: z.enum(["hook", "email"]), input: z.string() }),
);

function toWaiting(row: unknown): WaitingCall | null {
  const parsed = waitingRow().safeParse(row);
  if (!parsed.success) return null;
  const r = parsed.data;
  return { runId: r.run_id, jobId: r.job_id, acceptedAt: r.accepted_at, via: r.via, input: r.input };
}

export class HookStore {
  constructor(private readonly db: Db) {}

  /** The run a call with `key` made within the last 24 hours, or null. */
  runOfKey(jobId: string, key: string, now: number): string | null {
    const row = this.db.sql
      .exec<{ run_id: string }>("SELECT run_id FROM hook_calls WHERE job_id = ? AND key = ? AND at > ?", jobId, key, now - KEY_KEPT_MS)
      .toArray()[0];
    return row ? String(row.run_id) : null;
  }

  /** The calls the job's hook accepted in the hour before `now`: how many, and when the oldest of them was. */
  lastHour(jobId: string, now: number): { n: number; oldest: number | null } {
    const row = this.db.sql
      .exec<{ n: number; oldest: number | null }>("SELECT COUNT(*) AS n, MIN(at) AS oldest FROM hook_calls WHERE job_id = ? AND at > ?", jobId, now - HOUR_MS)
      .one();
    return { n: row.n, oldest: row.oldest };
  }

  /** Whether a call or a waiting call took `runId` already. */
  taken(runId: string): boolean {
    return (
      this.db.sql.exec("SELECT 1 FROM hook_waiting WHERE run_id = ? UNION ALL SELECT 1 FROM hook_calls WHERE run_id = ?", runId, runId).toArray().length > 0
    );
  }

  /**
   * An accepted call: remembered for the hourly limit and, with a key, for 24 hours; the job's calls older than that
   * are dropped first (so a key may come again after a day).
   */
  accepted(jobId: string, runId: string, key: string | null, now: number): void {
    this.db.sql.exec("DELETE FROM hook_calls WHERE job_id = ? AND at <= ?", jobId, now - KEY_KEPT_MS);
    this.db.sql.exec("INSERT INTO hook_calls (job_id, at, run_id, key) VALUES (?, ?, ?, ?)", jobId, now, runId, key);
  }

  /** How many calls of the job wait. */
  waitingCount(jobId: string): number {
    return this.db.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM hook_waiting WHERE job_id = ?", jobId).one().n;
  }

  wait(call: WaitingCall): void {
    this.db.sql.exec(
      "INSERT INTO hook_waiting (run_id, job_id, accepted_at, via, input) VALUES (?, ?, ?, ?, ?)",
      call.runId,
      call.jobId,
      call.acceptedAt,
      call.via,
      call.input,
    );
  }

  /** The first waiting call of each job that can run one now (it exists, is enabled, and has no run in flight). */
  ready(): WaitingCall[] {
    return this.db.sql
      .exec(
        "SELECT w.run_id, w.job_id, w.accepted_at, w.via, w.input FROM hook_waiting w JOIN jobs j ON j.id = w.job_id " +
          "WHERE j.running_run_id IS NULL AND j.enabled = 1 AND j.quarantined IS NULL " +
          "AND w.run_id = (SELECT run_id FROM hook_waiting WHERE job_id = w.job_id ORDER BY accepted_at, run_id LIMIT 1)",
      )
      .toArray()
      .flatMap((row) => {
        const call = toWaiting(row);
        return call ? [call] : [];
      });
  }

  /** When the alarm should come for a waiting call whose job can run it (its time of acceptance: due at once). */
  soonest(): number | null {
    return this.db.sql
      .exec<{ t: number | null }>(
        "SELECT MIN(w.accepted_at) AS t FROM hook_waiting w JOIN jobs j ON j.id = w.job_id WHERE j.running_run_id IS NULL AND j.enabled = 1 AND j.quarantined IS NULL",
      )
      .one().t;
  }

  /** A waiting call taken to be run. */
  take(runId: string): void {
    this.db.sql.exec("DELETE FROM hook_waiting WHERE run_id = ?", runId);
  }

  /** The job is gone, or its hook was replaced or revoked: what it took goes with it. */
  forget(jobId: string): void {
    this.db.sql.exec("DELETE FROM hook_waiting WHERE job_id = ?", jobId);
    this.db.sql.exec("DELETE FROM hook_calls WHERE job_id = ?", jobId);
  }

  /** Waiting calls and remembered calls of jobs that are gone. */
  dropOrphans(): void {
    this.db.sql.exec("DELETE FROM hook_waiting WHERE job_id NOT IN (SELECT id FROM jobs)");
    this.db.sql.exec("DELETE FROM hook_calls WHERE job_id NOT IN (SELECT id FROM jobs)");
  }
}
