/**
 * @module The chat's conversation record (DESIGN §6, §7): the transcript (the last 500 entries), the keys
 * already delivered (so a redelivered prompt never gets a second reply) and the Telegram update ids already
 * handled. SQL only; rows read back are parsed.
 */
import * as z from "zod";
import { lazy } from "../../lazy";
import { buttonRowsSchema, ROLES, SOURCES, type ButtonRows, type Role, type Source, type TranscriptEntry } from "../../schemas/chats";
import type { Db } from "./db";

export const TRANSCRIPT_KEPT = 500;
/** Delivered keys are remembered this long, so a redelivered queue message never gets a second reply. */
export const DELIVERED_KEPT_MS = 30 * 86_400_000;

export type NewEntry = { role: Role; source: Source; text: string; jobId?: string | null; runId?: string | null; buttons?: ButtonRows | null };

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
        "INSERT INTO transcript (at, role, source, text, job_id, run_id, buttons) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id",
        at,
        entry.role,
        entry.source,
        entry.text,
        entry.jobId ?? null,
        entry.runId ?? null,
        entry.buttons && entry.buttons.length > 0 ? JSON.stringify(entry.buttons) : null,
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
      .exec<{ role: string; text: string }>("SELECT role, text FROM transcript WHERE role IN ('user', 'bot') AND at < ? ORDER BY id DESC LIMIT ?", before, maxEntries)
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
  try {
    const parsed = buttonRowsSchema().safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
