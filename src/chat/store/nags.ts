/**
 * @module The chat's `nags` table (docs/telegram.md#nag-until-done): a run's message to send again while no one acted on
 * it, one row per run, gone once its copies are spent or someone presses any of them.
 */
import type { Db } from "./db";
import type { Flag } from "./settings";

/** A message that nags: what it says, how often, how many copies are left, the copy it is at, when the next is due. */
export type Nag = { runId: string; jobId: string; markdown: string; everyMs: number; left: number; n: number; nextAt: number; silent: boolean };

export class NagStore {
  /**
   * `any`: whether a run's message may nag, a setting (read with the others in one statement): most chats never
   * nag, and every alarm and RPC asks for the soonest, so a chat with none asks nothing more.
   */
  constructor(
    private readonly db: Db,
    private readonly any: Flag = { get: () => true, set: () => {} },
  ) {}

  /** Starts a run's nagging (a run's message is delivered once, so a repeated start changes nothing). */
  start(nag: Nag): void {
    this.any.set(true);
    this.db.sql.exec(
      "INSERT INTO nags (run_id, job_id, markdown, every_ms, left, n, next_at, silent) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (run_id) DO NOTHING",
      nag.runId,
      nag.jobId,
      nag.markdown,
      nag.everyMs,
      nag.left,
      nag.n,
      nag.nextAt,
      nag.silent ? 1 : 0,
    );
  }

  /** The nags due at `now`, soonest first. */
  due(now: number): Nag[] {
    if (!this.any.get()) return [];
    return this.db.sql
      .exec<{ run_id: string; job_id: string; markdown: string; every_ms: number; left: number; n: number; next_at: number; silent: number }>(
        "SELECT run_id, job_id, markdown, every_ms, left, n, next_at, silent FROM nags WHERE next_at <= ? ORDER BY next_at, run_id",
        now,
      )
      .toArray()
      .map((r) => ({
        runId: r.run_id,
        jobId: r.job_id,
        markdown: r.markdown,
        everyMs: r.every_ms,
        left: r.left,
        n: r.n,
        nextAt: r.next_at,
        silent: r.silent === 1,
      }));
  }

  /** A copy was sent: the next one, or none when they are spent. */
  sent(nag: Nag): void {
    if (nag.left <= 1) this.end(nag.runId);
    else this.db.sql.exec("UPDATE nags SET left = ?, n = ?, next_at = ? WHERE run_id = ?", nag.left - 1, nag.n + 1, nag.nextAt + nag.everyMs, nag.runId);
  }

  /** Someone acted on the run's message (or its job is gone): no more copies. */
  end(runId: string): void {
    this.db.sql.exec("DELETE FROM nags WHERE run_id = ?", runId);
  }

  soonest(): number | null {
    if (!this.any.get()) return null;
    const t = this.db.sql.exec<{ t: number | null }>("SELECT MIN(next_at) AS t FROM nags").one().t;
    if (t === null) this.any.set(false);
    return t;
  }
}
