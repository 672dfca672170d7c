/**
 * @module The chat's conversation record (docs/telegram.md, docs/agent.md): the transcript (the last 500 entries), the keys
 * already delivered (so a redelivered prompt never gets a second reply) and the Telegram update ids already
 * handled. A prompt job's message keeps what its buttons need (the job's copy for a snooze, the buttons as they
 * are now) and the Telegram message ids its parts went out as, so that a reply to one names its job. SQL only;
 * rows read back are parsed.
 */
import * as z from "zod";
import type { JobCopy } from "../../jobs/snooze";
import { lazy } from "../../lazy";
import { type ButtonRows, buttonRowsSchema, ROLES, type Role, SOURCES, type Source, type TranscriptEntry } from "../../schemas/chats";
import type { Db } from "./db";

export const TRANSCRIPT_KEPT = 500;
/** Delivered keys are remembered this long, so a redelivered queue message never gets a second reply. */
export const DELIVERED_KEPT_MS = 30 * 86_400_000;

/** `jobCopy`: on a prompt job's message, what a snooze copies of the job. */
export type NewEntry = {
  role: Role;
  source: Source;
  text: string;
  jobId?: string | null;
  runId?: string | null;
  buttons?: ButtonRows | null;
  jobCopy?: JobCopy | null;
};

/** A prompt job's message, as its buttons find it: the entry, its job and run, its buttons now and the job's copy. */
export type JobMessage = { entryId: number; jobId: string; runId: string; buttons: ButtonRows | null; copy: JobCopy | null };

const jobCopySchema = lazy(() =>
  z.object({ name: z.string().min(1), text: z.string(), memoryRefs: z.array(z.string()), silent: z.boolean(), threadId: z.number().int().optional() }),
);
const messageIdsSchema = lazy(() => z.array(z.number().int()));

const entryRow = lazy(() =>
  z.object({
    id: z.number().int(),
    at: z.number().int(),
    role: z.enum(ROLES),
    source: z.enum(SOURCES),
    text: z.string(),
    job_id: z.string().nullable(),
    run_id: z.string().nullable(),
    buttons: z.string().nullable(),
  }),
);

export class TranscriptStore {
  constructor(private readonly db: Db) {}

  /** Appends an entry and drops what falls beyond the last 500; returns its id. */
  append(entry: NewEntry, at: number): number {
    const id = this.db.sql
      .exec<{ id: number }>(
        "INSERT INTO transcript (at, role, source, text, job_id, run_id, buttons, job_copy) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
        at,
        entry.role,
        entry.source,
        entry.text,
        entry.jobId ?? null,
        entry.runId ?? null,
        entry.buttons && entry.buttons.length > 0 ? JSON.stringify(entry.buttons) : null,
        entry.jobCopy ? JSON.stringify(entry.jobCopy) : null,
      )
      .one().id;
    if (id > TRANSCRIPT_KEPT) this.db.sql.exec("DELETE FROM transcript WHERE id <= ?", id - TRANSCRIPT_KEPT);
    return id;
  }

  removeEntry(id: number): void {
    this.db.sql.exec("DELETE FROM transcript WHERE id = ?", id);
  }

  /**
   * The conversation before `before` (epoch ms) as a model reads it: user and bot entries only, newest last, at
   * most `maxEntries` of them and `maxChars` characters in all (the newest kept; an entry is never cut).
   */
  conversation(before: number, maxEntries: number, maxChars: number): { role: "user" | "bot"; text: string }[] {
    const rows = this.db.sql
      .exec<{ role: string; text: string }>(
        "SELECT role, text FROM transcript WHERE role IN ('user', 'bot') AND at < ? ORDER BY id DESC LIMIT ?",
        before,
        maxEntries,
      )
      .toArray();
    const kept: { role: "user" | "bot"; text: string }[] = [];
    let chars = 0;
    for (const row of rows) {
      if (typeof row.text !== "string" || (row.role !== "user" && row.role !== "bot")) continue;
      chars += row.text.length;
      if (chars > maxChars) break;
      kept.push({ role: row.role, text: row.text });
    }
    return kept.reverse();
  }

  /**
   * The last `limit` entries, oldest first. A bot entry about a job that kept no buttons of its own gets the
   * job's (`jobButtons`), as the outbox sends them: Telegram shows them under it, so the transcript does too.
   */
  entries(limit: number, jobButtons: (jobId: string) => ButtonRows): TranscriptEntry[] {
    const rows = this.db.sql.exec("SELECT * FROM (SELECT * FROM transcript ORDER BY id DESC LIMIT ?) ORDER BY id", limit).toArray();
    return rows.flatMap((row) => {
      const r = entryRow().safeParse(row);
      if (!r.success) return [];
      const e: TranscriptEntry = { id: String(r.data.id), at: new Date(r.data.at).toISOString(), role: r.data.role, source: r.data.source, text: r.data.text };
      if (r.data.job_id !== null) e.jobId = r.data.job_id;
      if (r.data.run_id !== null) e.runId = r.data.run_id;
      // NULL: none of its own (a job's entry shows the job's); "[]": taken away once answered.
      const buttons = r.data.buttons === null ? null : parseButtons(r.data.buttons);
      if (buttons && buttons.length > 0) e.buttons = buttons;
      else if (r.data.buttons === null && e.role === "bot" && e.jobId !== undefined) e.buttons = jobButtons(e.jobId);
      return [e];
    });
  }

  /** Takes the buttons away from the entries that offered `data` (an offer answered, a zone chosen). */
  clearButtons(data: string): void {
    // The data is JSON-quoted as stored, so "y:abc" does not also match "y:abcd".
    this.db.sql.exec("UPDATE transcript SET buttons = '[]' WHERE buttons IS NOT NULL AND instr(buttons, ?) > 0", JSON.stringify(data));
  }

  /** The message a prompt job's run delivered (its buttons name the run), or null when the transcript no longer has it. */
  jobMessage(runId: string): JobMessage | null {
    const row = this.db.sql
      .exec<{ id: number; job_id: string | null; run_id: string | null; buttons: string | null; job_copy: string | null }>(
        "SELECT id, job_id, run_id, buttons, job_copy FROM transcript WHERE run_id = ? AND role = 'bot' AND job_id IS NOT NULL ORDER BY id DESC LIMIT 1",
        runId,
      )
      .toArray()[0];
    if (!row || typeof row.job_id !== "string" || typeof row.run_id !== "string") return null;
    const copy = row.job_copy === null ? null : jobCopySchema().safeParse(parseJson(row.job_copy));
    return {
      entryId: row.id,
      jobId: row.job_id,
      runId: row.run_id,
      buttons: row.buttons === null ? null : parseButtons(row.buttons),
      copy: copy?.success ? copy.data : null,
    };
  }

  /** Replaces an entry's buttons (a job's message answered: the one line that says what was done). */
  setButtons(entryId: number, buttons: ButtonRows | null): void {
    this.db.sql.exec("UPDATE transcript SET buttons = ? WHERE id = ?", buttons === null ? null : JSON.stringify(buttons), entryId);
  }

  /** The Telegram message ids an entry's parts went out as, once the last part was sent. */
  recordSent(entryId: number, messageIds: readonly number[]): void {
    this.db.sql.exec("UPDATE transcript SET message_ids = ? WHERE id = ?", JSON.stringify(messageIds), entryId);
  }

  /** The Telegram message ids an entry went out as (none: not sent, or sent before they were recorded). */
  sentIds(entryId: number): number[] {
    const row = this.db.sql.exec<{ message_ids: string | null }>("SELECT message_ids FROM transcript WHERE id = ?", entryId).toArray()[0];
    const ids = messageIdsSchema().safeParse(parseJson(row?.message_ids ?? ""));
    return ids.success ? ids.data : [];
  }

  /** The job (and run) whose message went out as Telegram's `messageId` in this chat, or null. */
  jobOfMessage(messageId: number): { jobId: string; runId: string | null } | null {
    for (const row of this.db.sql
      .exec<{ job_id: string | null; run_id: string | null; message_ids: string | null }>(
        "SELECT job_id, run_id, message_ids FROM transcript " +
          "WHERE job_id IS NOT NULL AND message_ids IS NOT NULL AND instr(message_ids, ?) > 0 ORDER BY id DESC",
        String(messageId),
      )
      .toArray()) {
      // instr() only narrows the rows read (12 is in [112]); the ids are compared once parsed.
      const ids = messageIdsSchema().safeParse(parseJson(row.message_ids ?? ""));
      if (ids.success && ids.data.includes(messageId) && typeof row.job_id === "string") return { jobId: row.job_id, runId: row.run_id };
    }
    return null;
  }

  /** An entry's text and the job it is about, by its id (a message written in reply to it), or null. */
  entry(id: number): { text: string; jobId: string | null } | null {
    const row = this.db.sql.exec<{ text: string; job_id: string | null }>("SELECT text, job_id FROM transcript WHERE id = ?", id).toArray()[0];
    return row && typeof row.text === "string" ? { text: row.text, jobId: typeof row.job_id === "string" ? row.job_id : null } : null;
  }

  // Delivered keys.

  delivered(key: string): boolean {
    return this.db.sql.exec("SELECT 1 FROM deliveries WHERE key = ?", key).toArray().length > 0;
  }

  markDelivered(key: string, at: number): void {
    this.db.sql.exec("INSERT INTO deliveries (key, at) VALUES (?, ?)", key, at);
    this.db.sql.exec("DELETE FROM deliveries WHERE at < ?", at - DELIVERED_KEPT_MS);
  }

  // Telegram updates.

  /** Records an update id; false when it was seen before. Ids are kept a week (Telegram retries for a day). */
  firstUpdate(updateId: number, at: number): boolean {
    // Synchronous SQL in one event: no other request runs between the look-up and the insert.
    if (this.db.sql.exec("SELECT 1 FROM updates WHERE update_id = ?", updateId).toArray().length > 0) return false;
    this.db.sql.exec("INSERT INTO updates (update_id, at) VALUES (?, ?)", updateId, at);
    this.db.sql.exec("DELETE FROM updates WHERE at < ?", at - 7 * 86_400_000);
    return true;
  }

  forgetUpdate(updateId: number): void {
    this.db.sql.exec("DELETE FROM updates WHERE update_id = ?", updateId);
  }
}

/** Stored buttons, or null when the column holds something else (never a reason to lose the entry). */
function parseButtons(json: string): ButtonRows | null {
  const parsed = buttonRowsSchema().safeParse(parseJson(json));
  return parsed.success ? parsed.data : null;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
