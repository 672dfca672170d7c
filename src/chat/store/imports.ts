/**
 * @module The chat's `imports` table (issue 16): every source id imported into the chat and the job it
 * became. Kept after the job is gone (a one-off that fired, a job cancelled), so that the same data imported
 * again creates nothing twice.
 */
import type { Db } from "./db";

export class ImportStore {
  constructor(private readonly db: Db) {}

  has(sourceId: string): boolean {
    return this.db.sql.exec("SELECT 1 FROM imports WHERE source_id = ?", sourceId).toArray().length > 0;
  }

  add(sourceId: string, jobId: string, at: number): void {
    this.db.sql.exec("INSERT INTO imports (source_id, job_id, at) VALUES (?, ?, ?)", sourceId, jobId, at);
  }
}
