/**
 * @module The chat's `memory` table (docs/api.md#tools-for-agents, issue 16): its memory records, the only code that reads or
 * writes them. Rows read back are parsed with zod; a row that does not parse is left out (and logged), so
 * one bad row never hides the others. Times are epoch milliseconds.
 */
import * as z from "zod";
import { lazy } from "../../lazy";
import { type Db, IDS_PER_STATEMENT } from "./db";

/** A memory record as the chat's object stores it. */
export type StoredMemory = { id: string; title: string; body: string; revision: number; updatedAt: number };

const memoryRow = lazy(() =>
  z
    .object({ id: z.string(), title: z.string(), body: z.string(), revision: z.number().int().min(1), updated_at: z.number().int() })
    .transform((r): StoredMemory => ({ id: r.id, title: r.title, body: r.body, revision: r.revision, updatedAt: r.updated_at })),
);

export class MemoryStore {
  constructor(private readonly db: Db) {}

  private parseAll(cursor: SqlStorageCursor<Record<string, SqlStorageValue>>): StoredMemory[] {
    return cursor.toArray().flatMap((row) => {
      const parsed = memoryRow().safeParse(row);
      if (parsed.success) return [parsed.data];
      console.error(`memory record ${String(row.id)} is unreadable: ${parsed.error.issues[0]?.message ?? "invalid"}`);
      return [];
    });
  }

  /** Every record, the most recently updated first. */
  all(): StoredMemory[] {
    return this.parseAll(this.db.sql.exec("SELECT * FROM memory ORDER BY updated_at DESC, id"));
  }

  get(id: string): StoredMemory | null {
    return this.parseAll(this.db.sql.exec("SELECT * FROM memory WHERE id = ?", id))[0] ?? null;
  }

  /** The records of these ids that exist, by id (one statement per 50 ids). */
  some(ids: readonly string[]): Map<string, StoredMemory> {
    const found = new Map<string, StoredMemory>();
    for (let i = 0; i < ids.length; i += IDS_PER_STATEMENT) {
      const chunk = ids.slice(i, i + IDS_PER_STATEMENT);
      for (const record of this.parseAll(this.db.sql.exec(`SELECT * FROM memory WHERE id IN (${chunk.map(() => "?").join(", ")})`, ...chunk))) {
        found.set(record.id, record);
      }
    }
    return found;
  }

  count(): number {
    return this.db.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM memory").one().n;
  }

  exists(id: string): boolean {
    return this.db.sql.exec("SELECT 1 FROM memory WHERE id = ?", id).toArray().length > 0;
  }

  insert(record: StoredMemory): void {
    this.db.sql.exec(
      "INSERT INTO memory (id, title, body, revision, updated_at) VALUES (?, ?, ?, ?, ?)",
      record.id,
      record.title,
      record.body,
      record.revision,
      record.updatedAt,
    );
  }

  /** Writes the record when it is still at `revision - 1`; false when another update came first. */
  update(record: StoredMemory): boolean {
    const cursor = this.db.sql.exec(
      "UPDATE memory SET title = ?, body = ?, revision = ?, updated_at = ? WHERE id = ? AND revision = ?",
      record.title,
      record.body,
      record.revision,
      record.updatedAt,
      record.id,
      record.revision - 1,
    );
    cursor.toArray();
    return cursor.rowsWritten > 0;
  }

  /** Removes a record; false when there was none. */
  delete(id: string): boolean {
    const cursor = this.db.sql.exec("DELETE FROM memory WHERE id = ?", id);
    cursor.toArray();
    return cursor.rowsWritten > 0;
  }
}
