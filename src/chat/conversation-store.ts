/**
 * @module The chat's conversation tables (DESIGN §1, §7): the transcript (last 500 entries), the keys already
 * delivered, the Telegram outbox and the agent run gate with its pending prompts. SQL only; rows read back
 * are parsed.
 */
import * as z from "zod";
import { lazy } from "../lazy";

export const TRANSCRIPT_KEPT = 500;
/** Delivered keys are remembered this long, so a redelivered queue message never gets a second reply. */
export const DELIVERED_KEPT_MS = 30 * 86_400_000;

export type Role = "user" | "bot" | "prompt";
export type Source = "telegram" | "admin" | "job" | "watcher" | "alert" | "command";

export type TranscriptEntry = {
  id: string;
  at: string;
  role: Role;
  source: Source;
  text: string;
  jobId?: string;
  runId?: string;
};

export type NewEntry = { role: Role; source: Source; text: string; jobId?: string | null; runId?: string | null };

export type OutboxRow = {
  id: number;
  key: string;
  created_at: number;
  markdown: string;
  job_id: string | null;
  run_id: string | null;
  attempts: number;
  next_attempt_at: number;
  parts_sent: number;
};

const outboxRow = lazy(() =>
  z.object({
    id: z.number().int(),
    key: z.string(),
    created_at: z.number().int(),
    markdown: z.string(),
    job_id: z.string().nullable(),
    run_id: z.string().nullable(),
    attempts: z.number().int(),
    next_attempt_at: z.number().int(),
    parts_sent: z.number().int(),
  }),
);

export type GateState = { token: string; leaseUntil: number; activeKey: string | null; activeMessage: string | null };

const entryRow = lazy(() =>
  z.object({
    id: z.number().int(),
    at: z.number().int(),
    role: z.enum(["user", "bot", "prompt"]),
    source: z.enum(["telegram", "admin", "job", "watcher", "alert", "command"]),
    text: z.string(),
    job_id: z.string().nullable(),
    run_id: z.string().nullable(),
  }),
);

const gateRow = lazy(() =>
  z.object({ token: z.string(), lease_until: z.number().int(), active_key: z.string().nullable(), active_message: z.string().nullable() }),
);

export class ConversationStore {
  constructor(private readonly sql: SqlStorage) {}

  // Transcript.

  /** Appends an entry and drops what falls beyond the last 500; returns its id. */
  append(entry: NewEntry, at: number): number {
    const id = this.sql
      .exec<{ id: number }>(
        "INSERT INTO transcript (at, role, source, text, job_id, run_id) VALUES (?, ?, ?, ?, ?, ?) RETURNING id",
        at,
        entry.role,
        entry.source,
        entry.text,
        entry.jobId ?? null,
        entry.runId ?? null,
      )
      .one().id;
    if (id > TRANSCRIPT_KEPT) this.sql.exec("DELETE FROM transcript WHERE id <= ?", id - TRANSCRIPT_KEPT);
    return id;
  }

  removeEntry(id: number): void {
    this.sql.exec("DELETE FROM transcript WHERE id = ?", id);
  }

  /** The last `limit` entries, oldest first. */
  entries(limit: number): TranscriptEntry[] {
    const rows = this.sql.exec("SELECT * FROM (SELECT * FROM transcript ORDER BY id DESC LIMIT ?) ORDER BY id", limit).toArray();
    return rows.flatMap((row) => {
      const r = entryRow().safeParse(row);
      if (!r.success) return [];
      const e: TranscriptEntry = { id: String(r.data.id), at: new Date(r.data.at).toISOString(), role: r.data.role, source: r.data.source, text: r.data.text };
      if (r.data.job_id !== null) e.jobId = r.data.job_id;
      if (r.data.run_id !== null) e.runId = r.data.run_id;
      return [e];
    });
  }

  // Delivered keys.

  delivered(key: string): boolean {
    return this.sql.exec("SELECT 1 FROM deliveries WHERE key = ?", key).toArray().length > 0;
  }

  markDelivered(key: string, at: number): void {
    this.sql.exec("INSERT INTO deliveries (key, at) VALUES (?, ?)", key, at);
    this.sql.exec("DELETE FROM deliveries WHERE at < ?", at - DELIVERED_KEPT_MS);
  }

  // Outbox (sent to Telegram by a later part; written only when there is a bot to send it).

  enqueueOutbox(row: { key: string; markdown: string; jobId: string | null; runId: string | null }, at: number): void {
    this.sql.exec(
      "INSERT INTO outbox (key, created_at, markdown, job_id, run_id, next_attempt_at) VALUES (?, ?, ?, ?, ?, ?)",
      row.key,
      at,
      row.markdown,
      row.jobId,
      row.runId,
      at,
    );
  }

  /** Drops what is waiting to be sent (failed rows stay as the record). */
  clearOutbox(): void {
    this.sql.exec("DELETE FROM outbox WHERE failed_at IS NULL");
  }

  /**
   * Rows in order, oldest first, up to the first that is not due yet: a row that must wait (429, backoff)
   * holds back the ones after it, so a chat's messages never overtake each other.
   */
  dueOutbox(now: number): OutboxRow[] {
    const due: OutboxRow[] = [];
    for (const row of this.sql
      .exec("SELECT id, key, created_at, markdown, job_id, run_id, attempts, next_attempt_at, parts_sent FROM outbox WHERE failed_at IS NULL ORDER BY id")
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
    const row = this.sql.exec<{ t: number }>("SELECT next_attempt_at AS t FROM outbox WHERE failed_at IS NULL ORDER BY id LIMIT 1").toArray()[0];
    return row ? row.t : null;
  }

  partSent(id: number, partsSent: number): void {
    this.sql.exec("UPDATE outbox SET parts_sent = ? WHERE id = ?", partsSent, id);
  }

  deferOutbox(id: number, attempts: number, nextAttemptAt: number): void {
    this.sql.exec("UPDATE outbox SET attempts = ?, next_attempt_at = ? WHERE id = ?", attempts, nextAttemptAt, id);
  }

  removeOutbox(id: number): void {
    this.sql.exec("DELETE FROM outbox WHERE id = ?", id);
  }

  /** Telegram never took it: kept as failed, with the reason, for a week; rows failed before that go. */
  failOutbox(id: number, error: string, at: number): void {
    this.sql.exec("UPDATE outbox SET failed_at = ?, error = ? WHERE id = ?", at, error.slice(0, 500), id);
    this.sql.exec("DELETE FROM outbox WHERE failed_at IS NOT NULL AND failed_at < ?", at - 7 * 86_400_000);
  }

  /** Messages that were given up on, newest first (for operators and tests). */
  failedOutbox(): { key: string; error: string | null; failedAt: number }[] {
    return this.sql
      .exec<{ key: string; error: string | null; failed_at: number }>("SELECT key, error, failed_at FROM outbox WHERE failed_at IS NOT NULL ORDER BY id DESC")
      .toArray()
      .map((r) => ({ key: r.key, error: r.error, failedAt: r.failed_at }));
  }

  // Telegram updates.

  /** Records an update id; false when it was seen before. Ids are kept a week (Telegram retries for a day). */
  firstUpdate(updateId: number, at: number): boolean {
    // Synchronous SQL in one event: no other request runs between the look-up and the insert.
    if (this.sql.exec("SELECT 1 FROM updates WHERE update_id = ?", updateId).toArray().length > 0) return false;
    this.sql.exec("INSERT INTO updates (update_id, at) VALUES (?, ?)", updateId, at);
    this.sql.exec("DELETE FROM updates WHERE at < ?", at - 7 * 86_400_000);
    return true;
  }

  forgetUpdate(updateId: number): void {
    this.sql.exec("DELETE FROM updates WHERE update_id = ?", updateId);
  }

  // Run gate.

  gate(): GateState | null {
    const row = this.sql.exec("SELECT token, lease_until, active_key, active_message FROM gate WHERE id = 1").toArray()[0];
    if (!row) return null;
    const r = gateRow().safeParse(row);
    if (!r.success) return null;
    return { token: r.data.token, leaseUntil: r.data.lease_until, activeKey: r.data.active_key, activeMessage: r.data.active_message };
  }

  setGate(state: GateState | null): void {
    if (state === null) {
      this.sql.exec("DELETE FROM gate WHERE id = 1");
      return;
    }
    this.sql.exec(
      "INSERT INTO gate (id, token, lease_until, active_key, active_message) VALUES (1, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET token = excluded.token, lease_until = excluded.lease_until, active_key = excluded.active_key, active_message = excluded.active_message",
      state.token,
      state.leaseUntil,
      state.activeKey,
      state.activeMessage,
    );
  }

  isPending(key: string): boolean {
    return this.sql.exec("SELECT 1 FROM pending WHERE key = ?", key).toArray().length > 0;
  }

  addPending(key: string, message: string, at: number, first = false): void {
    if (first) {
      const min = this.sql.exec<{ seq: number | null }>("SELECT MIN(seq) AS seq FROM pending").one().seq;
      if (min !== null) {
        this.sql.exec("INSERT INTO pending (seq, key, message, received_at) VALUES (?, ?, ?, ?)", min - 1, key, message, at);
        return;
      }
    }
    this.sql.exec("INSERT INTO pending (key, message, received_at) VALUES (?, ?, ?)", key, message, at);
  }

  /** Removes and returns the oldest pending prompt's JSON, or null. */
  takePending(key?: string): { key: string; message: string } | null {
    const row = (
      key === undefined
        ? this.sql.exec<{ seq: number; key: string; message: string }>("SELECT seq, key, message FROM pending ORDER BY seq LIMIT 1")
        : this.sql.exec<{ seq: number; key: string; message: string }>("SELECT seq, key, message FROM pending WHERE key = ?", key)
    ).toArray()[0];
    if (!row) return null;
    this.sql.exec("DELETE FROM pending WHERE seq = ?", row.seq);
    return { key: row.key, message: row.message };
  }

  oldestPending(): { key: string; message: string } | null {
    return this.sql.exec<{ key: string; message: string }>("SELECT key, message FROM pending ORDER BY seq LIMIT 1").toArray()[0] ?? null;
  }

  /** When the gate's lease runs out (for the alarm). */
  gateDeadline(): number | null {
    return this.gate()?.leaseUntil ?? null;
  }
}
