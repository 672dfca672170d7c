/**
 * @module A chat's state as it moves from a basic group's object to its supergroup's (docs/telegram.md, issue 26): the
 * old object exports every table of its database (`export`), in chunks small enough for one RPC each; the new one
 * stages the chunks in `move_in` and, once the last has landed, takes them all in one transaction (`apply`),
 * merged with whatever it already holds; then the old one forgets everything but its chat id and the forwarding
 * note (`forgetAll`). The only code that reads every table by name. Rows cross the RPC as JSON, parsed with zod;
 * a table or column is written only when the new object's own schema has it (both run the same migrations).
 */
import * as z from "zod";
import { newJobId } from "../../contracts/ids";
import { lazy } from "../../lazy";
import type { Db } from "./db";

/** Tables that stay with their object: the schema's version, what it wrote to D1, a group's remembered rights, staging. */
const STAYS = new Set(["schema_version", "directory", "members", "move_in"]);
/** Settings that are the object's own, never the chat's: its id, the move itself, and the blocked flag. */
const OWN_SETTINGS = ["chat_id", "moving_to", "move_retry_at", "moved_to", "moved_from", "blocked"];
/** The most JSON one chunk carries: well inside an RPC's 32 MiB. */
export const CHUNK_BYTES = 4 * 1024 * 1024;

const NAME = /^[a-z_][a-z0-9_]*$/;
const value = () => z.union([z.string(), z.number(), z.null()]);
const tableSchema = lazy(() =>
  z.strictObject({ table: z.string().regex(NAME), columns: z.array(z.string().regex(NAME)).min(1), rows: z.array(z.array(value())) }),
);
/** One chunk of a move: its place, how many there are, and rows of some tables. */
export const moveChunk = lazy(() => z.strictObject({ seq: z.number().int().min(0), count: z.number().int().min(1), tables: z.array(tableSchema()) }));
export type MoveChunk = z.infer<ReturnType<typeof moveChunk>>;
type TableRows = z.infer<ReturnType<typeof tableSchema>>;
type Value = string | number | null;

/** `"name"`: an identifier the schema itself gave (checked against NAME), quoted for SQL. */
const quoted = (name: string): string => `"${name}"`;

/** A prompt message's JSON with its chat id changed to the new one (anything else is kept as it is). */
function movedMessage(json: Value, from: string, to: string): Value {
  if (typeof json !== "string") return json;
  try {
    const message: unknown = JSON.parse(json);
    if (typeof message === "object" && message !== null && (message as { chatId?: unknown }).chatId === from) return JSON.stringify({ ...message, chatId: to });
  } catch {
    // Not JSON: kept as it is.
  }
  return json;
}

export class MoveStore {
  constructor(private readonly db: Db) {}

  /** The tables of this database that move, and their columns. */
  private tables(): Map<string, string[]> {
    const out = new Map<string, string[]>();
    const names = this.db.sql
      .exec<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
      .toArray()
      .map((r) => String(r.name));
    for (const name of names) {
      if (!NAME.test(name) || STAYS.has(name) || name.startsWith("sqlite_") || name.startsWith("_cf")) continue;
      out.set(
        name,
        this.db.sql
          .exec<{ name: string }>(`SELECT name FROM pragma_table_info('${name}')`)
          .toArray()
          .map((r) => String(r.name)),
      );
    }
    return out;
  }

  /** Every moving row, as chunks of at most CHUNK_BYTES of JSON (at least one chunk, empty when nothing moves). */
  export(): MoveChunk[] {
    const chunks: TableRows[][] = [[]];
    let bytes = 0;
    for (const [table, columns] of this.tables()) {
      const where = table === "settings" ? ` WHERE key NOT IN (${OWN_SETTINGS.map(() => "?").join(", ")})` : "";
      const cursor = this.db.sql.exec(`SELECT ${columns.map(quoted).join(", ")} FROM ${quoted(table)}${where}`, ...(where ? OWN_SETTINGS : []));
      let current: TableRows | null = null;
      for (const raw of cursor.raw()) {
        const row = raw.map((v) => (v instanceof ArrayBuffer ? null : v));
        const size = JSON.stringify(row).length;
        if (bytes + size > CHUNK_BYTES && bytes > 0) {
          chunks.push([]);
          bytes = 0;
          current = null;
        }
        if (current === null) {
          current = { table, columns, rows: [] };
          chunks[chunks.length - 1]!.push(current);
        }
        current.rows.push(row);
        bytes += size;
      }
    }
    return chunks.map((tables, seq) => ({ seq, count: chunks.length, tables }));
  }

  /** Stages a chunk (the first chunk of an attempt drops what an earlier one left). */
  stage(chunk: MoveChunk): void {
    if (chunk.seq === 0) this.clearStaged();
    this.db.sql.exec(
      "INSERT INTO move_in (seq, count, payload) VALUES (?, ?, ?) ON CONFLICT (seq) DO UPDATE SET count = excluded.count, payload = excluded.payload",
      chunk.seq,
      chunk.count,
      JSON.stringify(chunk.tables),
    );
  }

  /** Every staged chunk's rows, in order, once all of them landed; else null. */
  staged(): TableRows[] | null {
    const rows = this.db.sql.exec<{ seq: number; count: number; payload: string }>("SELECT seq, count, payload FROM move_in ORDER BY seq").toArray();
    const count = rows[0]?.count;
    if (count === undefined || rows.length !== count || rows.some((r, i) => r.seq !== i || r.count !== count)) return null;
    const tables: TableRows[] = [];
    for (const r of rows) {
      const parsed = z.array(tableSchema()).safeParse(JSON.parse(String(r.payload)));
      if (!parsed.success) throw new Error(`move_in chunk ${r.seq} is not a chunk of a move`);
      tables.push(...parsed.data);
    }
    return tables;
  }

  clearStaged(): void {
    this.db.sql.exec("DELETE FROM move_in");
  }

  /**
   * Takes the moved rows `from` the old chat into this one (`to`), inside the caller's transaction. Rows this
   * object already has win where keys meet (settings, delivered keys, seen updates); a job whose id is taken here
   * gets a fresh one (its runs follow); transcript and outbox rows are appended in their order; prompt messages
   * name the new chat. A table or column this schema lacks is left out.
   */
  apply(moved: readonly TableRows[], from: string, to: string): void {
    const schema = this.tables();
    const ids = new Map<string, string>();
    const jobId = (id: Value): Value => (typeof id === "string" ? (ids.get(id) ?? id) : id);
    const runId = (id: Value): Value => {
      if (typeof id !== "string") return id;
      const colon = id.indexOf(":");
      const job = colon > 0 ? ids.get(id.slice(0, colon)) : undefined;
      return job === undefined ? id : `${job}${id.slice(colon)}`;
    };
    // Jobs first, so that every other table's job and run ids can follow a job given a new id.
    const order = [...moved].sort((a, b) => Number(b.table === "jobs") - Number(a.table === "jobs"));
    for (const part of order) {
      const mine = schema.get(part.table);
      if (mine === undefined) continue;
      const keep = part.columns
        .map((c, i) => [c, i] as const)
        .filter(
          ([c]) => mine.includes(c) && !(c === "id" && (part.table === "transcript" || part.table === "outbox")) && !(c === "seq" && part.table === "pending"),
        );
      if (keep.length === 0) continue;
      if (part.table === "gate" && this.db.sql.exec("SELECT 1 FROM gate").toArray().length > 0) continue;
      const names = keep.map(([c]) => c);
      const insert = `INSERT OR IGNORE INTO ${quoted(part.table)} (${names.map(quoted).join(", ")}) VALUES (${names.map(() => "?").join(", ")})`;
      for (const row of part.rows) {
        const values = keep.map(([c, i]): Value => {
          const v = row[i] ?? null;
          if (part.table === "jobs" && c === "id") return this.freshJobId(v, ids);
          if (c === "job_id") return jobId(v);
          if (c === "run_id" || c === "active_key" || (c === "key" && (part.table === "pending" || part.table === "outbox"))) return runId(v);
          if (c === "message" || c === "active_message") return movedMessage(v, from, to);
          if (part.table === "settings" && c === "value") return runId(v);
          return v;
        });
        this.db.sql.exec(insert, ...values);
      }
    }
  }

  /** A moved job's id, or a fresh one (remembered in `ids`) when a job of this chat has it already. */
  private freshJobId(id: Value, ids: Map<string, string>): Value {
    if (typeof id !== "string" || this.db.sql.exec("SELECT 1 FROM jobs WHERE id = ?", id).toArray().length === 0) return id;
    let fresh = newJobId();
    while (this.db.sql.exec("SELECT 1 FROM jobs WHERE id = ?", fresh).toArray().length > 0) fresh = newJobId();
    ids.set(id, fresh);
    return fresh;
  }

  /** Forgets every moved row, inside the caller's transaction: only the chat id (settings) and `directory` stay. */
  forgetAll(): void {
    for (const table of this.tables().keys()) {
      if (table === "settings") this.db.sql.exec("DELETE FROM settings WHERE key <> 'chat_id'");
      else this.db.sql.exec(`DELETE FROM ${quoted(table)}`);
    }
    this.db.sql.exec("DELETE FROM members");
  }
}
