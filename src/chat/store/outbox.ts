/**
 * @module The chat's Telegram outbox (docs/telegram.md): each message the chat must see, kept until Telegram took
 * every part of it (or, given up on, kept as failed for a week). Written only when a bot can send it.
 */
import * as z from "zod";
import { lazy } from "../../lazy";
import type { Db } from "./db";

const outboxRow = lazy(() =>
  z.object({
    id: z.number().int(),
    key: z.string(),
    created_at: z.number().int(),
    markdown: z.string(),
    job_id: z.string().nullable(),
    run_id: z.string().nullable(),
    attempts: z.number().int(),
    stalls: z.number().int(),
    next_attempt_at: z.number().int(),
    parts_sent: z.number().int(),
    buttons: z.string().nullable(),
    entry_id: z.number().int().nullable(),
    message_ids: z.string().nullable(),
    silent: z.union([z.literal(0), z.literal(1)]),
    thread_id: z.number().int().nullable(),
    edit_of: z.number().int().nullable(),
    copy_of: z.number().int().nullable(),
  }),
);

/** One message waiting for Telegram (columns as stored). */
export type OutboxRow = z.infer<ReturnType<typeof outboxRow>>;

export class OutboxStore {
  /**
   * Whether nothing waits since the last `clearOutbox`: a chat that cannot be sent to (transcript mode, a
   * blocked chat) clears on every delivery and alarm, and a DELETE that finds nothing still costs a statement.
   * Only `enqueueOutbox` adds rows; a rolled-back transaction or an erase forgets it (`forget`).
   */
  private cleared = false;

  constructor(private readonly db: Db) {}

  /**
   * A message to send; `buttons` (JSON rows of `{ text, data }`) are its own, else a job's message gets the job's.
   * `entryId`: the transcript entry whose Telegram message ids are recorded once it went out (a job's message);
   * `silent`: its job's messages go out without a notification sound; `threadId`: the forum topic it goes to
   * (null: the main thread).
   */
  enqueueOutbox(
    row: {
      key: string;
      markdown: string;
      jobId: string | null;
      runId: string | null;
      buttons?: string | null;
      entryId?: number | null;
      silent?: boolean;
      threadId?: number | null;
      /** In place of a message: the transcript entry whose last Telegram message gets these buttons instead. */
      editOf?: number | null;
      /** In place of a message: the chat's message (its id) copied here (`copyMessage`). */
      copyOf?: number | null;
    },
    at: number,
  ): void {
    this.cleared = false;
    this.db.sql.exec(
      "INSERT INTO outbox (key, created_at, markdown, job_id, run_id, next_attempt_at, buttons, entry_id, silent, thread_id, edit_of, copy_of) " +
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
      row.key,
      at,
      row.markdown,
      row.jobId,
      row.runId,
      at,
      row.buttons ?? null,
      row.entryId ?? null,
      row.silent ? 1 : 0,
      row.threadId ?? null,
      row.editOf ?? null,
      row.copyOf ?? null,
    );
  }

  /** A forum topic is gone: what still waits for it goes to the main thread. */
  leaveThread(threadId: number): void {
    this.db.sql.exec("UPDATE outbox SET thread_id = NULL WHERE thread_id = ? AND failed_at IS NULL", threadId);
  }

  /** Drops what is waiting to be sent (failed rows stay as the record). */
  clearOutbox(): void {
    if (this.cleared) return;
    this.db.sql.exec("DELETE FROM outbox WHERE failed_at IS NULL");
    this.cleared = true;
  }

  /** Forgets that the outbox was cleared (after a rolled-back transaction, or when the database was erased). */
  forget(): void {
    this.cleared = false;
  }

  /**
   * Rows in order, oldest first, up to the first that is not due yet: a row that must wait (429, backoff)
   * holds back the ones after it, so a chat's messages never overtake each other.
   */
  dueOutbox(now: number): OutboxRow[] {
    const due: OutboxRow[] = [];
    for (const row of this.db.sql
      .exec(
        "SELECT id, key, created_at, markdown, job_id, run_id, attempts, stalls, next_attempt_at, parts_sent, " +
          "buttons, entry_id, message_ids, silent, thread_id, edit_of, copy_of FROM outbox WHERE failed_at IS NULL ORDER BY id",
      )
      .toArray()) {
      const r = outboxRow().safeParse(row);
      if (!r.success) continue;
      if (r.data.next_attempt_at > now) break;
      due.push(r.data);
    }
    return due;
  }

  /** When the outbox must be looked at again: the oldest row's time (the rows behind it wait for it). */
  outboxDeadline(): number | null {
    const row = this.db.sql.exec<{ t: number }>("SELECT next_attempt_at AS t FROM outbox WHERE failed_at IS NULL ORDER BY id LIMIT 1").toArray()[0];
    return row ? row.t : null;
  }

  /** A part went out (not the last: a sent row is removed); `messageIds`, the ids Telegram gave its parts so far, when kept. */
  partSent(id: number, partsSent: number, messageIds: readonly number[] | null = null): void {
    this.db.sql.exec("UPDATE outbox SET parts_sent = ?, message_ids = ? WHERE id = ?", partsSent, messageIds === null ? null : JSON.stringify(messageIds), id);
  }

  /** Waits until `nextAttemptAt`; `attempts` counts Telegram's failed answers, `stalls` the sends it never answered. */
  deferOutbox(id: number, next: { attempts: number; stalls: number; nextAttemptAt: number }): void {
    const { attempts, stalls, nextAttemptAt } = next;
    this.db.sql.exec("UPDATE outbox SET attempts = ?, stalls = ?, next_attempt_at = ? WHERE id = ?", attempts, stalls, nextAttemptAt, id);
  }

  removeOutbox(id: number): void {
    this.db.sql.exec("DELETE FROM outbox WHERE id = ?", id);
  }

  /** Telegram never took it: kept as failed, with the reason, for a week; rows failed before that go. */
  failOutbox(id: number, error: string, at: number): void {
    this.db.sql.exec("UPDATE outbox SET failed_at = ?, error = ? WHERE id = ?", at, error.slice(0, 500), id);
    this.db.sql.exec("DELETE FROM outbox WHERE failed_at IS NOT NULL AND failed_at < ?", at - 7 * 86_400_000);
  }

  /** Messages that were given up on, newest first (for operators and tests). */
  failedOutbox(): { key: string; error: string | null; failedAt: number }[] {
    return this.db.sql
      .exec<{ key: string; error: string | null; failed_at: number }>("SELECT key, error, failed_at FROM outbox WHERE failed_at IS NOT NULL ORDER BY id DESC")
      .toArray()
      .map((r) => ({ key: r.key, error: r.error, failedAt: r.failed_at }));
  }
}
