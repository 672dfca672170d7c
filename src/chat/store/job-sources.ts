/**
 * @module Which Telegram message created which job (docs/telegram.md#replies-and-edited-messages): a `/remind` or `/every` sent
 * in Telegram is remembered under its message id, so that editing the message edits its job, and a reply to it
 * names the job. Kept a week (Telegram lets a message be edited for two days).
 */
import type { Db } from "./db";

export const JOB_SOURCES_KEPT_MS = 7 * 86_400_000;

export class JobSourceStore {
  constructor(private readonly db: Db) {}

  /** The command `messageId` created job `jobId`. */
  add(messageId: number, jobId: string, at: number): void {
    this.db.sql.exec(
      "INSERT INTO job_sources (message_id, job_id, at) VALUES (?, ?, ?) ON CONFLICT (message_id) DO UPDATE SET job_id = excluded.job_id, at = excluded.at",
      messageId,
      jobId,
      at,
    );
    this.db.sql.exec("DELETE FROM job_sources WHERE at < ?", at - JOB_SOURCES_KEPT_MS);
  }

  /** The job the message created, or null. */
  jobOf(messageId: number): string | null {
    const row = this.db.sql.exec<{ job_id: string }>("SELECT job_id FROM job_sources WHERE message_id = ?", messageId).toArray()[0];
    return row && typeof row.job_id === "string" ? row.job_id : null;
  }
}
